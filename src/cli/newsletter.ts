// `postbox newsletter send|list` (docs/newsletter.md "Sending a post"): a published post to the subscribers of a
// newsletter form. `send` renders the mail and creates the campaign (data_dir/campaigns or PostgreSQL); the running `serve`
// sends it through the mail queue, and the command shows the progress until it is done. `--test` sends one mail
// now instead, `--dry-run` only says what would be sent. `--segment ID` sends to the subscribers a segment takes
// (docs/newsletter.md "Segments") instead of the whole list.
import { randomBytes } from 'node:crypto';
import { planCampaign, startCampaign, type CampaignPlan } from '../newsletter/campaigns/campaign-plan.js';
import { progressOf } from '../newsletter/campaigns/campaign.js';
import { createCampaignTestSender } from '../app/campaign-test-send.js';
import { loadCampaignSources } from '../app/campaign-sources.js';
import { describeProgress, watchCampaign, type WatchIo } from './campaign-watch.js';
import type { Backend } from '../adapters/backend.js';
import type { Config, MailConfig, NewsletterSegment } from '../config/config.js';

export const NEWSLETTER_USAGE = `  postbox newsletter send --form PATH|--list ID|--segment ID --post SLUG [--lang LANG] [--test ADDRESS]
                         [--dry-run] [--resend] [--config FILE]
                                  send a published post to a newsletter list's subscribers, or a segment of them
  postbox newsletter list [--config FILE]
                                  the campaigns sent so far, with their counts
`;

/** The options of `newsletter` as given on the command line. */
export interface NewsletterOptions {
  form?: string;
  list?: string;
  segment?: string;
  post?: string;
  lang?: string;
  test?: string;
  dryRun: boolean;
  resend: boolean;
}

/** A newsletter command line, read: `list`, or `send` with the form and post it needs. */
export type NewsletterCommand = { action: 'list' } | (NewsletterOptions & { action: 'send'; post: string });

export interface NewsletterCommandIo extends WatchIo {
  clock(): number;
}

/** `args` and `options` as a NewsletterCommand, or what is wrong with them; nothing is read yet. */
export function parseNewsletterCommand(args: readonly string[], options: NewsletterOptions): NewsletterCommand | { problem: string } {
  const [action, ...rest] = args;
  if (rest.length > 0) return { problem: `unexpected "${rest.join(' ')}"` };
  if (action === 'list') {
    const anyOption = options.form !== undefined || options.list !== undefined || options.segment !== undefined || options.post !== undefined || options.test !== undefined || options.dryRun || options.resend;
    return anyOption ? { problem: 'newsletter list takes no options but --config' } : { action };
  }
  if (action !== 'send') return { problem: action === undefined ? 'newsletter needs send or list' : `unknown newsletter command "${action}"` };
  const { form, list, segment, post } = options;
  const targets = [form, list, segment].filter((given) => given !== undefined).length;
  if (targets !== 1 || post === undefined) return { problem: 'newsletter send needs one of --form PATH, --list ID or --segment ID, and --post SLUG' };
  if (options.test !== undefined && options.dryRun) return { problem: '--test and --dry-run do not go together' };
  return { ...options, action, post };
}

/** Runs a newsletter command on the backend the command opened; the exit code: 0 done, 1 refused or failed. */
export async function runNewsletterCommand(command: NewsletterCommand, config: Config, backend: Backend, io: NewsletterCommandIo): Promise<number> {
  const ready = await backend.ready().catch((error: Error) => error);
  if (ready instanceof Error) return fail(io, ready.message);
  if (command.action === 'list') return listCampaigns(backend, io);
  if (!config.mail) return fail(io, 'the file has no [mail] section to send with');
  const sources = await loadCampaignSources(config, backend).catch((error: Error) => error);
  if (sources instanceof Error) return fail(io, sources.message);
  if (!sources) return fail(io, 'posts are sent from the blog: the file needs [site] and [blog]');
  const target = targetOf(command, config);
  if ('problem' in target) return fail(io, target.problem);
  try {
    const plan = await planCampaign(sources, { list: target.list, slug: command.post, lang: command.lang, segment: target.segment });
    await sources.releasePosts();
    if ('problem' in plan) {
      if (plan.problem === 'no_list') return fail(io, `no newsletter list "${target.list}" (lists: ${config.newsletter.lists.map((list) => list.id).join(', ') || 'none'})`);
      return fail(io, `no published post "${command.post}"${command.lang ? ` in ${command.lang}` : ''} (drafts and scheduled posts are not sent)`);
    }
    if (command.test !== undefined) return sendTest(config, config.mail, backend, plan, command.test, io);
    const count = plan.recipients.length;
    const whom = count === 1 ? 'the 1 subscriber' : `the ${count} subscribers`;
    const of = target.segment ? `of segment ${target.segment.id} (${plan.listCount} on ${plan.list.log.path})` : `of ${plan.list.log.path}`;
    io.out(`"${plan.body.subject}" (${plan.post.lang}, ${plan.post.url}) to ${whom} ${of}\n`);
    for (const { request, finished } of plan.earlier) io.out(`  sent before as campaign ${request.id}${finished ? '' : ' (still sending)'}\n`);
    if (command.dryRun) return 0;
    if (!config.mail.queue) return fail(io, 'campaigns go through the mail queue: set [mail] queue = true');
    const outcome = await startCampaign(sources.store, plan, { resend: command.resend, now: io.clock(), randomHex: randomBytes(2).toString('hex') });
    if ('refused' in outcome) {
      if (outcome.refused === 'no_subscribers') return fail(io, target.segment ? `segment ${target.segment.id} takes no confirmed subscriber` : `${plan.list.log.path} has no confirmed subscribers`);
      if (outcome.refused === 'taken') return fail(io, `another send of this post to ${plan.list.log.path} in ${plan.post.lang} started at the same moment; see postbox newsletter list`);
      if (outcome.refused === 'still_sending') return fail(io, `campaign ${outcome.earlier!.id} is still sending this post to ${plan.list.log.path}`);
      return fail(io, `this post was sent to ${plan.list.log.path} in ${plan.post.lang} already (campaign ${outcome.earlier!.id}); pass --resend to send it again`);
    }
    io.out(`campaign ${outcome.started.id} created; sending at [mail] send_per_minute = ${config.mail.send_per_minute || 'no limit'}\n`);
    const final = await watchCampaign(sources.store, outcome.started, io);
    io.out(`campaign ${outcome.started.id} finished: sent ${final.sent}, failed ${final.failed}, skipped ${final.skipped}\n`);
    return 0;
  } finally {
    await sources.releasePosts();
  }
}

/**
 * The list the send goes to, by its campaign key (a form's path, or a list id: campaign-plan.ts), and the segment of
 * it when one is asked for.
 */
function targetOf(command: NewsletterOptions, config: Config): { list: string; segment?: NewsletterSegment } | { problem: string } {
  if (command.form !== undefined) {
    // --form names a form's path only, so that a list id never stands in for a path that was mistyped.
    if (config.newsletter.lists.some((list) => list.form === command.form)) return { list: command.form };
    const forms = config.newsletter.lists.flatMap((list) => (list.form === undefined ? [] : [list.form]));
    return { problem: `no newsletter form at ${command.form} (newsletter forms: ${forms.join(', ') || 'none'})` };
  }
  if (command.segment === undefined) return { list: command.list ?? '' };
  const segment = config.newsletter.segments.find((entry) => entry.id === command.segment);
  if (!segment) return { problem: `no segment "${command.segment}" (segments: ${config.newsletter.segments.map((entry) => entry.id).join(', ') || 'none'})` };
  return { list: segment.list, segment };
}

/** `--test ADDRESS`: the mail a subscriber would get, with an unsubscribe link for ADDRESS, sent now without the queue. */
async function sendTest(config: Config, mail: MailConfig, backend: Backend, plan: CampaignPlan, address: string, io: NewsletterCommandIo): Promise<number> {
  const outcome = await createCampaignTestSender(config, mail, io.clock, backend.newsletter)(plan, address);
  if (outcome.ok) io.out(`${outcome.report}\n`);
  else io.error(`postbox: ${outcome.report}\n`);
  return outcome.ok ? 0 : 1;
}

async function listCampaigns(backend: Backend, io: NewsletterCommandIo): Promise<number> {
  const store = backend.campaigns;
  const requests = await store.list();
  if (requests.length === 0) io.out('no campaigns yet\n');
  for (const request of requests) {
    const progress = progressOf(await store.readJournal(request.id), request.recipients);
    const state = progress.finished ? 'finished' : progress.started ? 'sending' : 'waiting for serve';
    io.out(`${request.id}  ${request.form}  ${request.slug} (${request.lang})  ${state}: ${describeProgress(progress)}\n`);
  }
  return 0;
}

function fail(io: NewsletterCommandIo, message: string): number {
  io.error(`postbox: ${message}\n`);
  return 1;
}
