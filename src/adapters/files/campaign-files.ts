// Campaigns on disk (docs/newsletter.md "On disk"), one folder each in data_dir/campaigns/<id>/:
//   campaign.json    what was asked: form, post, language, subject, how many recipients
//   body.json        the mail as rendered when the campaign was created
//   recipients.txt   the confirmed addresses then, one per line, in the order they are sent to
//   journal.jsonl    started/finished lines, and one line per recipient whose mail left the queue or who was skipped
// and data_dir/campaigns/claims/<key>: the campaign of one form, post and language that follows a given set of
// earlier ones, made with O_EXCL, so that two sends started at the same moment (a double click, the CLI and
// /admin) make one campaign.
// A campaign is written in a hidden folder and renamed into place, so a reader sees all of it or nothing.
import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { claimKeyOf, isCampaignId, isCampaignRequest, type CampaignRequest, type JournalLine } from '../../newsletter/campaigns/campaign.js';
import type { CampaignBody, CampaignStore } from '../../newsletter/campaigns/campaign-store.js';
import { syncFolder, writeFileAtomically } from '../../kit/files/atomic-file.js';

/** The folder of the campaigns under data_dir. */
export function campaignsDirOf(dataDir: string): string {
  return path.join(dataDir, 'campaigns');
}

export function createCampaignFiles(campaignsDir: string): CampaignStore {
  const folderOf = (id: string) => {
    if (!isCampaignId(id)) throw new Error('not a campaign id');
    return path.join(campaignsDir, id);
  };
  const read = async (id: string): Promise<CampaignRequest | undefined> => {
    if (!isCampaignId(id)) return undefined;
    const text = await readFile(path.join(folderOf(id), 'campaign.json'), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (text === undefined) return undefined;
    const value: unknown = JSON.parse(text);
    if (!isCampaignRequest(value, id)) throw new Error(`campaign ${id}: campaign.json lacks a field`);
    return value;
  };
  /** Campaigns whose journal this process appended to: checked once for a torn last line. */
  const journalsChecked = new Set<string>();

  return {
    async create(request, body, recipients) {
      await mkdir(campaignsDir, { recursive: true });
      const staging = path.join(campaignsDir, `.new-${request.id}-${randomBytes(4).toString('hex')}`);
      await mkdir(staging, { mode: 0o700 });
      try {
        await writeFileAtomically(path.join(staging, 'recipients.txt'), recipients.map((email) => `${email}\n`).join(''));
        await writeFileAtomically(path.join(staging, 'body.json'), JSON.stringify(body));
        await writeFileAtomically(path.join(staging, 'campaign.json'), `${JSON.stringify(request, null, 2)}\n`);
        await rename(staging, folderOf(request.id));
      } catch (error) {
        await rm(staging, { recursive: true, force: true }).catch(() => undefined);
        throw error;
      }
      await syncFolder(campaignsDir);
    },
    async list() {
      const names = await readdir(campaignsDir).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [] as string[];
        throw error;
      });
      const requests: CampaignRequest[] = [];
      for (const name of names.filter(isCampaignId).sort()) {
        const request = await read(name).catch(() => undefined);
        if (request) requests.push(request);
      }
      return requests;
    },
    read,
    async readBody(id) {
      return JSON.parse(await readFile(path.join(folderOf(id), 'body.json'), 'utf8')) as CampaignBody;
    },
    async readRecipients(id) {
      const text = await readFile(path.join(folderOf(id), 'recipients.txt'), 'utf8');
      return text.split('\n').filter((line) => line !== '');
    },
    async readJournal(id) {
      const text = await readFile(path.join(folderOf(id), 'journal.jsonl'), 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return '';
        throw error;
      });
      const lines: JournalLine[] = [];
      for (const line of text.split('\n')) {
        if (line === '') continue;
        try {
          lines.push(JSON.parse(line) as JournalLine);
        } catch {
          // A line torn by a kill while it was written: its recipient is still in the queue or not reached.
        }
      }
      return lines;
    },
    async append(id, line) {
      const file = path.join(folderOf(id), 'journal.jsonl');
      // A line torn by a crash must not swallow the next one: the first append of this process starts on a new line.
      const torn = !journalsChecked.has(id) && (await endsWithoutNewline(file));
      journalsChecked.add(id);
      // One write of one whole line, with O_APPEND: lines of concurrent appends never interleave.
      await appendFile(file, `${torn ? '\n' : ''}${JSON.stringify(line)}\n`, { mode: 0o600 });
    },
    async claim(form, slug, lang, after) {
      const claims = path.join(campaignsDir, 'claims');
      await mkdir(claims, { recursive: true });
      const key = claimKeyOf(form, slug, lang, after);
      try {
        await (await open(path.join(claims, key), 'wx', 0o600)).close();
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw error;
      }
    },
  };
}

/** Whether `file` exists and its last byte is not a newline (a write cut short). */
async function endsWithoutNewline(file: string): Promise<boolean> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (!handle) return false;
  try {
    const { size } = await handle.stat();
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    await handle.close();
  }
}
