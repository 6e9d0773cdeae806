// The blog's ActivityPub records in data_dir/activitypub/ (docs/activitypub.md "What is kept"): keys.json (made once,
// mode 0600), followers.json, delivered.json, taken.json and remote-objects.json, each replaced atomically, one write
// at a time.
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ActivityPubStore, ActorKeys, DeliveredRecord, Follower, RemoteObject } from '../../activitypub/activitypub-store.js';
import { writeFileAtomically } from '../../kit/files/atomic-file.js';

export function createActivityPubFiles(dataDir: string): ActivityPubStore {
  const folder = path.join(dataDir, 'activitypub');
  let writes: Promise<unknown> = Promise.resolve();
  /** Runs `change` after the writes before it. */
  const serially = <T>(change: () => Promise<T>): Promise<T> => {
    const done = writes.then(change);
    writes = done.catch(() => undefined);
    return done;
  };
  const read = async <T>(name: string, empty: T): Promise<T> => {
    try {
      return JSON.parse(await readFile(path.join(folder, name), 'utf8')) as T;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty;
      throw error;
    }
  };
  const write = async (name: string, value: unknown) => {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await writeFileAtomically(path.join(folder, name), `${JSON.stringify(value, null, 1)}\n`);
  };
  const followers = () => read<Follower[]>('followers.json', []);
  const objects = () => read<Record<string, Omit<RemoteObject, 'objectId'>>>('remote-objects.json', {});
  /** Per post version, the activity last taken and the inboxes taken for it. */
  const taken = () => read<Record<string, { activity: string; inboxes: string[] }>>('taken.json', {});
  let keys: Promise<ActorKeys> | undefined;

  return {
    keys(create) {
      keys ??= serially(async () => {
        const kept = await read<ActorKeys | null>('keys.json', null);
        if (kept) return kept;
        const made = await create();
        await write('keys.json', made);
        return made;
      }).catch((error: unknown) => {
        keys = undefined;
        throw error;
      });
      return keys;
    },
    addFollower: (follower) => serially(async () => write('followers.json', [...(await followers()).filter((known) => known.id !== follower.id), follower])),
    removeFollower: (id) =>
      serially(async () => {
        const known = await followers();
        const kept = known.filter((follower) => follower.id !== id);
        if (kept.length === known.length) return false;
        await write('followers.json', kept);
        return true;
      }),
    followers: () => serially(followers),
    readDelivered: () => serially(() => read<DeliveredRecord>('delivered.json', {})),
    writeDelivered: (record) => serially(() => write('delivered.json', record)),
    takeInboxes: (postKey, activityId, inboxes) =>
      serially(async () => {
        const record = await taken();
        const earlier = record[postKey]?.activity === activityId ? record[postKey].inboxes : [];
        const fresh = [...new Set(inboxes)].filter((inbox) => !earlier.includes(inbox));
        if (fresh.length > 0 || record[postKey]?.activity !== activityId) await write('taken.json', { ...record, [postKey]: { activity: activityId, inboxes: [...earlier, ...fresh] } });
        return fresh;
      }),
    giveBackInboxes: (postKey, activityId, inboxes) =>
      serially(async () => {
        const record = await taken();
        const kept = record[postKey];
        if (kept?.activity !== activityId) return;
        await write('taken.json', { ...record, [postKey]: { activity: activityId, inboxes: kept.inboxes.filter((inbox) => !inboxes.includes(inbox)) } });
      }),
    addRemoteObject: ({ objectId, ...kept }) => serially(async () => write('remote-objects.json', { ...(await objects()), [objectId]: kept })),
    remoteObject: async (objectId) => {
      const kept = (await serially(objects))[objectId];
      return kept && { objectId, ...kept };
    },
    objectsOf: async (actorId) =>
      Object.entries(await serially(objects))
        .filter(([, kept]) => kept.actorId === actorId)
        .map(([objectId, kept]) => ({ objectId, ...kept })),
    removeRemoteObject: (objectId) =>
      serially(async () => {
        const { [objectId]: _gone, ...kept } = await objects();
        await write('remote-objects.json', kept);
      }),
  };
}
