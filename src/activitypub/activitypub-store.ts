// What the blog keeps as an actor of the fediverse (docs/activitypub.md "What is kept"): its key pair, made once,
// its followers, the posts delivered to them (so a restart sends nothing twice), the inboxes each activity was queued
// for (so replicas do not queue it twice) and, for each reply, like or boost
// that became a comment, which actor sent it. src/adapters/files/activitypub-files.ts keeps them in data_dir.

/** A remote actor that follows the blog, with where its activities go. */
export interface Follower {
  /** The actor's id (a URL). */
  id: string;
  inbox: string;
  /** The inbox its server shares between its actors, when it has one: one POST serves them all. */
  sharedInbox: string | null;
}

/** The actor's RSA key pair as JSON Web Keys. */
export interface ActorKeys {
  privateKey: JsonWebKey;
  publicKey: JsonWebKey;
}

/** Per post version (`<slug>@<lang>`): the Article id delivered and the change (a hash of what it says) last sent. */
export type DeliveredRecord = Record<string, { id: string; change: string }>;

export interface ActivityPubStore {
  /** The key pair kept, or the one `create` makes when there is none yet (kept from then on). */
  keys(create: () => Promise<ActorKeys>): Promise<ActorKeys>;
  /** Adds a follower, or replaces the one with the same id. */
  addFollower(follower: Follower): Promise<void>;
  /** Forgets a follower; false when there was none. */
  removeFollower(id: string): Promise<boolean>;
  /** Every follower, in the order they followed. */
  followers(): Promise<Follower[]>;
  readDelivered(): Promise<DeliveredRecord>;
  writeDelivered(record: DeliveredRecord): Promise<void>;
  /**
   * Of `inboxes`, those nobody took for activity `activityId` of version `postKey` (`<slug>@<lang>`) before, now
   * taken by the caller: of replicas that see the same change at once, one queues each inbox's activity. Taking
   * another activity of the version forgets what its earlier one took.
   */
  takeInboxes(postKey: string, activityId: string, inboxes: readonly string[]): Promise<string[]>;
  /** Gives back inboxes taken whose activity could not be queued, so that the next look takes them again. */
  giveBackInboxes(postKey: string, activityId: string, inboxes: readonly string[]): Promise<void>;
  /** Remembers a remote object that became a comment (replacing what was kept of the same object). */
  addRemoteObject(object: RemoteObject): Promise<void>;
  /** What is kept of one remote object, or undefined. */
  remoteObject(objectId: string): Promise<RemoteObject | undefined>;
  /** The remote objects `actorId` sent. */
  objectsOf(actorId: string): Promise<RemoteObject[]>;
  removeRemoteObject(objectId: string): Promise<void>;
}

/**
 * A reply, like or boost that became a comment: who sent it and which comment it is. The comment itself names no
 * source, so that the trust webmentions give a host that had one approved is never earned by a fediverse server.
 */
export interface RemoteObject {
  objectId: string;
  actorId: string;
  comment: { slug: string; lang: string; id: string };
}
