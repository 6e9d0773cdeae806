// `[newsletter]` and the lists of newsletter forms (docs/newsletter.md "Lists"): every newsletter form is a list
// (its `list` key, default its path without the leading "/"), `[[newsletter.lists]]` names lists and may declare
// lists without a form of their own, and a form may offer several (`lists`); `[[newsletter.segments]]` are saved
// filters over a list (docs/newsletter.md "Segments"). The schema here, the cross-key rules over the forms, and the
// resolution into the lists the code uses.
import { z } from 'zod';
import { layoutColorsSchema, type MailLayout } from './mail-layouts.js';
import { oneLineText } from './text-values.js';

/** The path of the preference page on the forms service (docs/newsletter.md "Preferences"); no form may take it. */
export const PREFERENCES_PATH = '/newsletter/preferences';

/** A list id: letters, digits and `._/-`, not starting with "/" (a form's default id is its path without it). */
export const listId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]{0,99}$/, 'must be 1 to 100 letters, digits, ".", "_", "/" or "-", starting with a letter or digit');

const newsletterList = z.strictObject({
  id: listId,
  name: oneLineText.optional(),
  description: z.string().default(''),
  public: z.boolean().default(true),
  /** docs/newsletter.md "Layouts": a Markdown file, and the colours of the list's mails. */
  layout: z.string().min(1).optional(),
  colors: layoutColorsSchema.optional(),
});

/** A time as TOML gives it (an offset date-time, or a local date read as midnight UTC), or the same as text. */
const instant = z.union([z.date(), z.string()]).transform((value, context) => {
  const time = value instanceof Date ? value.getTime() : Date.parse(value);
  if (Number.isNaN(time)) {
    context.addIssue({ code: 'custom', message: 'must be a date such as 2026-01-31 or a time such as 2026-01-31T09:00:00Z' });
    return z.NEVER;
  }
  return new Date(time).toISOString();
});

const tagList = z.array(z.string().trim().min(1).toLowerCase()).default([]);

const newsletterSegment = z.strictObject({
  id: listId,
  list: listId,
  tags_include: tagList,
  tags_exclude: tagList,
  signed_up_after: instant.optional(),
  signed_up_before: instant.optional(),
  lang: z.string().trim().toLowerCase().optional(),
  source: z.string().optional(),
});

/** One segment as the code uses it; times are RFC 3339 UTC. */
export type NewsletterSegment = z.output<typeof newsletterSegment>;

const welcomeAutomation = z.strictObject({
  id: listId,
  type: z.literal('welcome'),
  list: listId,
  subject: oneLineText,
  body: z.string().min(1),
  steps: z
    .array(z.strictObject({ after_days: z.number().int().min(1).max(3650), subject: oneLineText, body: z.string().min(1) }), { error: 'must be [[newsletter.automations.steps]] tables' })
    .default([]),
});

/** `list` or `segment`, one of them: whom a post or a digest goes to. */
const audience = { list: listId.optional(), segment: listId.optional() };

const onPublishAutomation = z.strictObject({
  id: listId,
  type: z.literal('on_publish'),
  ...audience,
  /** The subject; `{{title}}` is the post's title, which is the subject when this is left out. */
  subject: oneLineText.default('{{title}}'),
});

const digestAutomation = z.strictObject({
  id: listId,
  type: z.literal('digest'),
  ...audience,
  subject: oneLineText,
  /** Markdown above the list of posts; `{{count}}` and `{{site}}` are filled in. */
  body: z.string().default(''),
  every: z.enum(['week', 'month'], { error: 'must be "week" or "month"' }),
  day: z.number().int().min(1).max(28).default(1),
  time: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day such as "09:00"')
    .default('09:00'),
});

const newsletterAutomation = z.discriminatedUnion('type', [welcomeAutomation, onPublishAutomation, digestAutomation], {
  error: (issue) => (issue.code === 'invalid_union' ? 'must have type "welcome", "on_publish" or "digest"' : undefined),
});

/** One automation as the code uses it (docs/newsletter.md "Automations"). */
export type NewsletterAutomation = z.output<typeof newsletterAutomation>;
/** A welcome automation, with its drip steps. */
export type WelcomeAutomation = z.output<typeof welcomeAutomation>;
/** An automation that mails posts: each one as it is published, or a digest of those of a week or a month. */
export type PostAutomation = z.output<typeof onPublishAutomation> | z.output<typeof digestAutomation>;

export const newsletterSchema = z.strictObject({
  lists: z.array(newsletterList, { error: 'must be [[newsletter.lists]] tables, one per list' }).default([]),
  segments: z.array(newsletterSegment, { error: 'must be [[newsletter.segments]] tables, one per segment' }).default([]),
  automations: z.array(newsletterAutomation, { error: 'must be [[newsletter.automations]] tables, one per automation' }).default([]),
});

export type ParsedNewsletter = z.output<typeof newsletterSchema>;

/** A newsletter form's default list id: its path without the leading "/" (and a trailing one); "/" is "newsletter". */
export function defaultListIdOf(formPath: string): string {
  return formPath.replace(/^\/+/, '').replace(/\/+$/, '') || 'newsletter';
}

/** Where a list's subscriber events are kept: `path` keys them (a form's path, or the id of a list without a form), `subscribers` is the log file. */
export interface SubscriberLogRef {
  path: string;
  subscribers: string;
}

/** One list as the code uses it. */
export interface NewsletterList {
  id: string;
  name: string;
  description: string;
  public: boolean;
  /** The path of the newsletter form whose own list this is; undefined for a list declared without a form. */
  form?: string;
  log: SubscriberLogRef;
  /** The layout of the list's mails (docs/newsletter.md "Layouts"); the default one when undefined. */
  layout?: MailLayout;
}

/** What a list needs of a newsletter form. */
interface ListForm {
  path: string;
  list: string;
  subscribers: string;
}

/** The subscriber log file of a list without a form of its own, inside data_dir. */
export function listLogFileOf(id: string): string {
  return `newsletter-list-${id.replace(/[^A-Za-z0-9._-]+/g, '-')}-subscribers.jsonl`;
}

/**
 * Every list: each newsletter form's own list (named by a `[[newsletter.lists]]` entry of the same id, when there
 * is one), then the declared lists without a form, in the order of the file.
 */
export function resolveNewsletterLists(parsed: ParsedNewsletter | undefined, forms: readonly ListForm[], layouts: ReadonlyMap<string, MailLayout> = new Map()): NewsletterList[] {
  const declared = new Map((parsed?.lists ?? []).map((entry) => [entry.id, entry]));
  const ofForms = forms.map((form): NewsletterList => {
    const entry = declared.get(form.list);
    return {
      id: form.list,
      name: entry?.name ?? form.list,
      description: entry?.description ?? '',
      public: entry?.public ?? true,
      form: form.path,
      log: { path: form.path, subscribers: form.subscribers },
      ...(layouts.has(form.list) ? { layout: layouts.get(form.list) } : {}),
    };
  });
  const taken = new Set(forms.map((form) => form.list));
  const alone = [...declared.values()]
    .filter((entry) => !taken.has(entry.id))
    .map(
      (entry): NewsletterList => ({
        id: entry.id,
        name: entry.name ?? entry.id,
        description: entry.description,
        public: entry.public,
        log: { path: entry.id, subscribers: listLogFileOf(entry.id) },
        ...(layouts.has(entry.id) ? { layout: layouts.get(entry.id) } : {}),
      }),
    );
  return [...ofForms, ...alone];
}

/** One problem of the lists, at its key path. */
export interface ListProblem {
  path: (string | number)[];
  message: string;
}

/**
 * Clashes no table shows alone: two forms with one list, a list, segment or automation declared twice, a form
 * offering (or a segment or automation over) a list that does not exist. Runs on entries that may have failed their own checks, so nothing is assumed of a value's type.
 */
export function findListProblems(forms: readonly unknown[], newsletter: unknown): ListProblem[] {
  const problems: ListProblem[] = [];
  const known = new Set<string>();
  const formOfList = new Map<string, { index: number; given: boolean }>();
  forms.forEach((entry, index) => {
    if (entry === null || typeof entry !== 'object') return;
    const { type, path, list } = entry as Record<string, unknown>;
    if (type !== 'newsletter' || typeof path !== 'string') return;
    // The schema has put the default in already; an id equal to it counts as the default.
    const id = typeof list === 'string' ? list : defaultListIdOf(path);
    const given = id !== defaultListIdOf(path);
    const other = formOfList.get(id);
    // Two default ids alike come from paths alike ("/news", "/news/"): their confirmation paths clash already.
    if (other !== undefined && (given || other.given)) problems.push({ path: ['forms', index, 'list'], message: `is "${id}", already the list of forms[${other.index}]: give each newsletter form its own list` });
    else if (other === undefined) formOfList.set(id, { index, given });
    known.add(id);
  });
  const declared = (newsletter as { lists?: unknown } | undefined)?.lists;
  const seen = new Set<string>();
  (Array.isArray(declared) ? declared : []).forEach((entry: unknown, index) => {
    const id = (entry as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') return;
    if (seen.has(id)) problems.push({ path: ['newsletter', 'lists', index, 'id'], message: `"${id}" is declared twice` });
    seen.add(id);
    known.add(id);
  });
  forms.forEach((entry, index) => {
    const { type, lists: offered } = (entry ?? {}) as Record<string, unknown>;
    if (type !== 'newsletter' || !Array.isArray(offered)) return;
    offered.forEach((id: unknown, position) => {
      if (typeof id === 'string' && !known.has(id)) {
        problems.push({ path: ['forms', index, 'lists', position], message: `"${id}" is no list: declare it in [[newsletter.lists]] or give a newsletter form that list` });
      }
    });
  });
  for (const key of ['segments', 'automations'] as const) {
    const entries = (newsletter as Record<string, unknown> | undefined)?.[key];
    const ids = new Set<string>();
    (Array.isArray(entries) ? entries : []).forEach((entry: unknown, index) => {
      const { id, list } = (entry ?? {}) as Record<string, unknown>;
      if (typeof id === 'string' && ids.has(id)) problems.push({ path: ['newsletter', key, index, 'id'], message: `"${id}" is declared twice` });
      if (typeof id === 'string') ids.add(id);
      if (typeof list === 'string' && !known.has(list)) problems.push({ path: ['newsletter', key, index, 'list'], message: `"${list}" is no list: declare it in [[newsletter.lists]] or give a newsletter form that list` });
    });
  }
  problems.push(...findPostAutomationProblems(newsletter));
  return problems;
}

/**
 * An on_publish or digest automation names a list or a segment, one of them: any list, a form's own or one of
 * `[[newsletter.lists]]` (docs/newsletter.md "Automations").
 */
function findPostAutomationProblems(newsletter: unknown): ListProblem[] {
  const problems: ListProblem[] = [];
  const { segments, automations } = (newsletter ?? {}) as Record<string, unknown>;
  const segmentIds = new Set((Array.isArray(segments) ? segments : []).map((entry: unknown) => (entry as { id?: unknown } | null)?.id));
  (Array.isArray(automations) ? automations : []).forEach((entry: unknown, index) => {
    const { type, list, segment } = (entry ?? {}) as Record<string, unknown>;
    if (type !== 'on_publish' && type !== 'digest') return;
    const at = ['newsletter', 'automations', index];
    if ((list === undefined) === (segment === undefined)) {
      problems.push({ path: [...at, 'list'], message: 'give either list or segment: whom the posts are mailed to' });
    } else if (typeof segment === 'string' && !segmentIds.has(segment)) {
      problems.push({ path: [...at, 'segment'], message: `"${segment}" is no segment: declare it in [[newsletter.segments]]` });
    }
  });
  return problems;
}
