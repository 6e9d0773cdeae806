// `<postbox-comments post="slug" lang="en">`, served as /comments.js (docs/comments.md "The widget"): the approved
// thread of a post and a form to answer it, in a shadow root styled by the page's CSS custom properties. It talks
// to the API beside its own script (import.meta.url) and to nothing else.
import { solve, type Challenge } from './proof-of-work.js';

interface PublicComment {
  id: string;
  parent: string | null;
  author: { name: string; url?: string | null };
  html: string;
  created_at: string;
  kind: string;
}

/** Replies are indented up to this many levels; deeper ones line up with the fifth. */
const MAX_DEPTH = 5;

const API = new URL('./api/blog/', import.meta.url).href;

const STYLE = `:host{display:block;font:inherit;color:var(--postbox-text,inherit)}
ol{list-style:none;margin:0;padding:0}
ol ol{margin-left:var(--postbox-indent,1.5em);padding-left:.75em;border-left:2px solid var(--postbox-border,#ccc)}
article{margin:0 0 1em}
header{font-size:.9em;color:var(--postbox-muted,#555)}
.kind{margin-left:.5em;padding:0 .4em;border:1px solid var(--postbox-border,#ccc);border-radius:.3em}
form{display:grid;gap:.6em;margin-top:1.5em;max-width:var(--postbox-form-width,40em)}
label{display:grid;gap:.2em}
.check{display:flex;gap:.4em;align-items:center}
input,textarea,button{font:inherit}
input,textarea{padding:.4em;border:1px solid var(--postbox-border,#767676);border-radius:var(--postbox-radius,.3em);background:var(--postbox-field,#fff);color:inherit}
textarea{min-height:8em}
button{cursor:pointer;padding:.3em .8em;border:1px solid var(--postbox-accent,#1a5fb4);border-radius:var(--postbox-radius,.3em);background:var(--postbox-button,#fff);color:var(--postbox-accent,#1a5fb4)}
button[type=submit]{background:var(--postbox-accent,#1a5fb4);color:var(--postbox-accent-text,#fff);justify-self:start}
:focus-visible{outline:2px solid var(--postbox-focus,#1a5fb4);outline-offset:2px}
[aria-invalid=true]{border-color:var(--postbox-error,#b00020)}
.status{margin:0}
[hidden]{display:none}`;

const FORM = `<h3 id="title">Leave a comment</h3>
<p class="replying" hidden><span></span> <button type="button" class="cancel">Cancel reply</button></p>
<label>Name <input name="name" required maxlength="100" autocomplete="name"></label>
<label>Email (optional, never shown) <input name="email" type="email" maxlength="254" autocomplete="email"></label>
<label>Web site (optional) <input name="url" type="url" maxlength="2000" autocomplete="url"></label>
<label>Comment (Markdown) <textarea name="text" required maxlength="10000"></textarea></label>
<label class="check"><input name="notify" type="checkbox"> Mail me when someone replies</label>
<div hidden><label>Leave empty <input name="website" tabindex="-1" autocomplete="off"></label></div>
<button type="submit">Send</button>
<p class="status" role="status" aria-live="polite"></p>`;

class PostboxComments extends HTMLElement {
  private readonly root: ShadowRoot;
  private readonly thread: HTMLElement;
  private readonly heading: HTMLElement;
  private readonly form: HTMLFormElement;
  private readonly status: HTMLElement;
  private parent: string | null = null;
  private challenge: Promise<{ challenge: Challenge | null; at: number; altcha: Promise<string> | null }> | null = null;

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    this.root.innerHTML = `<style>${STYLE}</style><section aria-labelledby="heading"><h2 id="heading">Comments</h2><ol class="thread"></ol><form aria-labelledby="title" novalidate>${FORM}</form></section>`;
    this.heading = this.find('#heading');
    this.thread = this.find('.thread');
    this.form = this.find('form');
    this.status = this.find('.status');
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.send();
    });
    // The work starts when the visitor starts writing, so that it is done when they send.
    this.form.addEventListener('focusin', () => void this.prepare());
    this.find('.cancel').addEventListener('click', () => this.replyTo(null, ''));
    this.thread.addEventListener('click', (event) => {
      const button = (event.target as Element).closest('button[data-reply]');
      if (button) this.replyTo(button.getAttribute('data-reply'), button.getAttribute('data-name') ?? '');
    });
  }

  connectedCallback(): void {
    void this.load();
  }

  private find<T extends HTMLElement>(selector: string): T {
    return this.root.querySelector(selector) as T;
  }

  private address(path: string): string {
    const lang = this.getAttribute('lang');
    return `${API}${path}${lang ? `?lang=${encodeURIComponent(lang)}` : ''}`;
  }

  private commentsAddress(): string {
    return this.address(`posts/${encodeURIComponent(this.getAttribute('post') ?? '')}/comments`);
  }

  /** Shows the published thread. */
  private async load(): Promise<void> {
    try {
      const response = await fetch(this.commentsAddress());
      if (!response.ok) throw new Error(String(response.status));
      const { comments, total } = (await response.json()) as { comments: PublicComment[]; total: number };
      this.heading.textContent = total === 1 ? '1 comment' : `${total} comments`;
      const children = new Map<string | null, PublicComment[]>();
      const known = new Set(comments.map((comment) => comment.id));
      for (const comment of comments) {
        const parent = comment.parent !== null && known.has(comment.parent) ? comment.parent : null;
        const list = children.get(parent) ?? [];
        list.push(comment);
        children.set(parent, list);
      }
      this.thread.textContent = '';
      this.fill(this.thread, children, null, 0);
    } catch {
      this.heading.textContent = 'Comments';
      this.thread.innerHTML = '<li>The comments cannot be shown now.</li>';
    }
  }

  /** Appends the replies to `parent` to `list` (indented `depth` levels), each with its replies one level further in. */
  private fill(list: HTMLElement, children: Map<string | null, PublicComment[]>, parent: string | null, depth: number): void {
    for (const comment of children.get(parent) ?? []) {
      const item = this.item(comment);
      list.append(item);
      if (!children.has(comment.id)) continue;
      if (depth < MAX_DEPTH) {
        const replies = document.createElement('ol');
        item.append(replies);
        this.fill(replies, children, comment.id, depth + 1);
      } else {
        this.fill(list, children, comment.id, depth);
      }
    }
  }

  private item(comment: PublicComment): HTMLElement {
    const item = document.createElement('li');
    item.id = `comment-${comment.id}`;
    const article = document.createElement('article');
    const header = document.createElement('header');
    const name = document.createElement(comment.author.url ? 'a' : 'strong');
    name.textContent = comment.author.name;
    if (comment.author.url) {
      name.setAttribute('href', comment.author.url);
      name.setAttribute('rel', 'nofollow ugc');
    }
    const time = document.createElement('time');
    time.dateTime = comment.created_at;
    time.textContent = new Date(comment.created_at).toLocaleDateString(this.getAttribute('lang') || undefined, { year: 'numeric', month: 'short', day: 'numeric' });
    header.append(name, ' · ', time);
    if (comment.kind !== 'comment') {
      const kind = document.createElement('span');
      kind.className = 'kind';
      kind.textContent = comment.kind;
      header.append(kind);
    }
    const body = document.createElement('div');
    // The server renders the Markdown and passes it through an allow-list (docs/comments.md "What a comment may hold").
    body.innerHTML = comment.html;
    article.append(header, body);
    if (comment.kind === 'comment') {
      const reply = document.createElement('button');
      reply.type = 'button';
      reply.textContent = 'Reply';
      reply.setAttribute('aria-label', `Reply to ${comment.author.name}`);
      reply.setAttribute('data-reply', comment.id);
      reply.setAttribute('data-name', comment.author.name);
      article.append(reply);
    }
    item.append(article);
    return item;
  }

  private replyTo(id: string | null, name: string): void {
    this.parent = id;
    const notice = this.find('.replying');
    notice.hidden = id === null;
    (notice.firstChild as HTMLElement).textContent = `Replying to ${name}.`;
    (this.form.elements.namedItem(id === null ? 'name' : 'text') as HTMLElement).focus();
  }

  /** A challenge and its solution under way; none when the API asks for no proof of work (404). */
  private prepare(): Promise<{ challenge: Challenge | null; at: number; altcha: Promise<string> | null }> {
    this.challenge ??= fetch(`${API}comments/challenge`, { cache: 'no-store' }).then(async (response) => {
      if (response.status === 404) return { challenge: null, at: Date.now(), altcha: null };
      if (!response.ok) throw new Error(String(response.status));
      const challenge = (await response.json()) as Challenge;
      const altcha = solve(challenge);
      altcha.catch(() => undefined);
      return { challenge, at: Date.now(), altcha };
    });
    this.challenge.catch(() => (this.challenge = null));
    return this.challenge;
  }

  /** The `altcha` field for a comment sent now: a new challenge when the one at hand has expired. */
  private async proof(): Promise<string | undefined> {
    let prepared = await this.prepare();
    const data = prepared.challenge?.parameters.data;
    if (data && typeof data.i === 'number' && typeof data.e === 'number' && Date.now() - prepared.at > data.e - data.i - 5000) {
      this.challenge = null;
      prepared = await this.prepare();
    }
    return prepared.altcha ? prepared.altcha : undefined;
  }

  private async send(): Promise<void> {
    const fields = this.form.elements;
    const value = (name: string) => (fields.namedItem(name) as HTMLInputElement).value.trim();
    for (const name of ['name', 'email', 'url', 'text']) (fields.namedItem(name) as HTMLElement).removeAttribute('aria-invalid');
    const invalid = ['name', 'email', 'url', 'text'].filter((name) => !(fields.namedItem(name) as HTMLInputElement).checkValidity());
    if (invalid.length > 0) return this.refuse(invalid.map((field) => ({ field, message: `Please check the ${field === 'url' ? 'web site' : field}.` })));
    const submit = this.find<HTMLButtonElement>('button[type=submit]');
    submit.disabled = true;
    this.say('Sending…');
    try {
      const body: Record<string, unknown> = { name: value('name'), text: value('text'), website: value('website') };
      if (value('email')) body.email = value('email');
      if (value('url')) body.url = value('url');
      if (this.parent) body.parent = this.parent;
      if ((fields.namedItem('notify') as HTMLInputElement).checked) body.notify = true;
      const altcha = await this.proof();
      if (altcha) body.altcha = altcha;
      const response = await fetch(this.commentsAddress(), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
      // A challenge is good once: the next comment gets a new one.
      this.challenge = null;
      const answer = (await response.json()) as { status?: string; error?: string; details?: Array<{ field: string; message: string }>; message?: string };
      if (response.status === 202) {
        (fields.namedItem('text') as HTMLTextAreaElement).value = '';
        this.replyTo(null, '');
        if (answer.status === 'published') {
          await this.load();
          this.say('Thank you: your comment is published.');
        } else {
          this.say('Thank you: your comment is pending, it waits for approval.');
        }
      } else if (answer.error === 'validation' && answer.details) {
        this.refuse(answer.details);
      } else {
        this.say(answer.error === 'rate_limited' ? 'Too many comments were sent: please try again later.' : answer.message || 'The comment could not be sent.');
      }
    } catch {
      this.challenge = null;
      this.say('The comment could not be sent: please try again.');
    } finally {
      submit.disabled = false;
    }
  }

  private refuse(details: Array<{ field: string; message: string }>): void {
    for (const { field } of details) (this.form.elements.namedItem(field) as HTMLElement | null)?.setAttribute('aria-invalid', 'true');
    this.say(details.map((detail) => detail.message).join(' '));
    (this.form.elements.namedItem(details[0]?.field ?? '') as HTMLElement | null)?.focus();
  }

  private say(message: string): void {
    this.status.textContent = message;
  }
}

if (!customElements.get('postbox-comments')) customElements.define('postbox-comments', PostboxComments);
