// The post editor's one script (the CSP runs scripts from /admin only, never inline ones; docs/architecture.md
// "Browser code" says how it is built and served). Progressive enhancement of the editor page
// (post-pages/post-editor-page.tsx; docs/admin.md "Posts"): without it every button is a plain form submit. With it:
//
//   - the formatting toolbar (Bold, Italic, Link, Heading, Quote, List, Code, Image) and Ctrl/Cmd+B, I, K act on
//     the text area's selection (a roving tab stop: Tab reaches the toolbar once, the arrows move in it);
//   - the live preview follows the text 400 ms after the last keystroke: POST /admin/posts/preview.json answers the
//     blog renderer's HTML, which goes into a sandboxed frame only (it keeps a post's raw HTML: never the page's DOM);
//   - leaving with unsaved text asks first (not after a submit of the editor);
//   - the typed text is kept as the person's unsaved draft (POST /admin/posts/draft) 1.5 s after the last keystroke,
//     and at most 4 s after the first unsent one while typing goes on; and once more when the page goes away;
//   - an image chosen with the Image button, pasted or dropped into the text is uploaded
//     (POST /admin/posts/upload.json) and `![](name)` is put at the cursor, with the cursor between the brackets
//     for its description;
//   - an image larger than the admin takes (`data-max-bytes`, `[admin] max_upload_bytes`) is refused before it is
//     sent, by the Image button, paste and drop as by the Images panel's "Upload image": the page and its typed
//     text stay, and the message says the limit.

const PREVIEW_MS = 400;
const DRAFT_IDLE_MS = 1500;
const DRAFT_MAX_MS = 4000;
const SUBMIT_WAIT_MS = 2000;
const FIELDS = ['title', 'slug', 'date', 'tags', 'excerpt', 'cover', 'coverAlt', 'author', 'lang', 'body'];

type Format = 'bold' | 'italic' | 'link' | 'heading' | 'quote' | 'list' | 'code' | 'image';

/** An answer of the editor's JSON routes: only what the script reads of them. */
interface EditorAnswer {
  message?: unknown;
  savedAt?: unknown;
  html?: unknown;
  file?: unknown;
  name?: unknown;
  bytes?: unknown;
}

function startEditor(): void {
  const form = document.querySelector<HTMLFormElement>('form[data-editor]');
  if (!form || typeof window.fetch !== 'function' || typeof window.URLSearchParams !== 'function') return;
  const textarea = form.querySelector<HTMLTextAreaElement>('textarea[name="body"]');
  const csrfInput = form.querySelector<HTMLInputElement>('input[name="csrf_token"]');
  if (!textarea || !csrfInput) return;
  const editorForm: HTMLFormElement = form;
  const text: HTMLTextAreaElement = textarea;
  const csrf = csrfInput.value;

  function $<T extends Element = HTMLElement>(selector: string): T | null {
    return document.querySelector<T>(selector);
  }
  function each(selector: string, action: (element: HTMLElement) => void): void {
    Array.prototype.forEach.call(document.querySelectorAll<HTMLElement>(selector), action);
  }
  function postFile(): string {
    const input = editorForm.querySelector<HTMLInputElement>('input[name="file"]');
    return input ? input.value : '';
  }
  function say(message: string): void {
    const element = $('[data-editor-message]');
    if (element) element.textContent = message;
  }
  /** The text fields, the body and the draft box, as the editor form posts them. */
  function textState(): URLSearchParams {
    const params = new URLSearchParams();
    FIELDS.forEach((name) => {
      const element = editorForm.elements.namedItem(name);
      if (element && 'value' in element && typeof element.value === 'string') params.append(name, element.value);
    });
    const draft = editorForm.elements.namedItem('draft');
    if (draft instanceof HTMLInputElement && draft.checked) params.append('draft', 'on');
    return params;
  }
  function withPost(params: URLSearchParams): URLSearchParams {
    params.append('csrf_token', csrf);
    if (postFile()) params.append('file', postFile());
    return params;
  }
  /** POSTs `body` and gives the JSON answer; rejects with a sentence for the person. */
  function post(url: string, body: URLSearchParams | FormData): Promise<EditorAnswer> {
    return window
      .fetch(url, { method: 'POST', body, credentials: 'same-origin', cache: 'no-store', redirect: 'error', headers: { accept: 'application/json' } })
      .then((response) => {
        const type = response.headers.get('content-type') || '';
        if (type.indexOf('application/json') !== 0) throw new Error('The server answered ' + response.status + '.');
        return response.json().then((answer: EditorAnswer | null) => {
          if (!response.ok) throw new Error((answer && typeof answer.message === 'string' && answer.message) || 'The server answered ' + response.status + '.');
          return answer ?? {};
        });
      });
  }

  // Unsaved text: what the editor held when the page opened (a page showing typed text is unsaved from the start).
  const savedState: string | null = editorForm.hasAttribute('data-unsaved') ? null : textState().toString();
  let leaving = false;
  let stopDrafts = false;
  function isDirty(): boolean {
    return savedState === null || textState().toString() !== savedState;
  }

  // --- The unsaved draft on the server ---
  let draftTimer: number | null = null;
  let firstUnsentAt = 0;
  let draftInFlight: Promise<void> | null = null;
  let draftAgain = false;
  let lastSent: string | null = null;
  function showSaved(at: unknown): void {
    const element = $('[data-draft-status]');
    if (!element || typeof at !== 'number') return;
    element.textContent = 'Unsaved changes kept on the server at ' + new Date(at).toLocaleTimeString() + '.';
  }
  function scheduleDraft(): void {
    if (stopDrafts) return;
    const now = Date.now();
    if (draftTimer === null) firstUnsentAt = now;
    else window.clearTimeout(draftTimer);
    draftTimer = window.setTimeout(sendDraft, Math.min(DRAFT_IDLE_MS, Math.max(0, firstUnsentAt + DRAFT_MAX_MS - now)));
  }
  function sendDraft(): void {
    draftTimer = null;
    if (stopDrafts || !isDirty()) return;
    if (draftInFlight) {
      draftAgain = true;
      return;
    }
    const state = textState();
    const sent = state.toString();
    if (sent === lastSent) return;
    function settled(): void {
      draftInFlight = null;
      if (draftAgain) {
        draftAgain = false;
        sendDraft();
      }
    }
    draftInFlight = post('/admin/posts/draft', withPost(state)).then(
      (answer) => {
        lastSent = sent;
        showSaved(answer.savedAt);
        settled();
      },
      () => {
        const element = $('[data-draft-status]');
        if (element) element.textContent = 'Your unsaved changes could not be kept on the server just now.';
        settled();
      },
    );
  }
  window.addEventListener('pagehide', () => {
    if (leaving || stopDrafts || !isDirty() || typeof navigator.sendBeacon !== 'function') return;
    const state = textState();
    if (state.toString() !== lastSent) navigator.sendBeacon('/admin/posts/draft', withPost(state));
  });
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) {
      leaving = false;
      stopDrafts = false;
    }
  });

  // --- Leaving ---
  editorForm.addEventListener('submit', (event) => {
    if (isUploadTooLarge(event.submitter)) {
      event.preventDefault();
      return;
    }
    if (draftTimer !== null) window.clearTimeout(draftTimer);
    draftTimer = null;
    stopDrafts = true;
    const inFlight = draftInFlight;
    if (inFlight) {
      // A draft on its way would land after the save and be offered again: the submit waits for it (a moment at most).
      event.preventDefault();
      const submitter = event.submitter;
      const wait = new Promise<void>((resolve) => {
        window.setTimeout(resolve, SUBMIT_WAIT_MS);
        inFlight.then(resolve, resolve);
      });
      wait.then(() => {
        draftInFlight = null;
        if (typeof editorForm.requestSubmit === 'function') editorForm.requestSubmit(submitter || undefined);
        else editorForm.submit();
      });
      return;
    }
    leaving = true;
  });
  each('form[data-editor-leave]', (other) => {
    other.addEventListener('submit', () => {
      leaving = true;
    });
  });
  window.addEventListener('beforeunload', (event) => {
    if (leaving || !isDirty()) return;
    event.preventDefault();
    event.returnValue = '';
  });

  // --- The live preview ---
  const liveSection = $('[data-live-preview]');
  const liveFrame = $<HTMLIFrameElement>('[data-live-frame]');
  let previewTimer: number | null = null;
  let previewCount = 0;
  let previewed: string | null = null;
  function renderPreview(): void {
    const body = text.value;
    if (body === previewed) return;
    const count = ++previewCount;
    const params = new URLSearchParams();
    params.append('body', body);
    post('/admin/posts/preview.json', withPost(params)).then(
      (answer) => {
        if (count !== previewCount || typeof answer.html !== 'string' || !liveFrame) return;
        previewed = body;
        liveFrame.srcdoc = answer.html;
      },
      () => {},
    );
  }
  function schedulePreview(): void {
    if (previewTimer !== null) window.clearTimeout(previewTimer);
    previewTimer = window.setTimeout(() => {
      previewTimer = null;
      renderPreview();
    }, PREVIEW_MS);
  }

  function onEdit(event: Event): void {
    const target = event.target as { name?: unknown } | null;
    const name = target && typeof target.name === 'string' ? target.name : '';
    if (name !== 'draft' && FIELDS.indexOf(name) === -1) return;
    scheduleDraft();
    if (name === 'body') schedulePreview();
  }
  editorForm.addEventListener('input', onEdit);
  editorForm.addEventListener('change', onEdit);

  // --- Editing the selection ---
  /** Replaces the selection with `inserted` (kept in the undo history where the browser can) and selects part of it. */
  function replaceSelection(inserted: string, selectFrom: number, selectTo: number): void {
    const start = text.selectionStart;
    const end = text.selectionEnd;
    text.focus();
    let done = false;
    try {
      done = inserted !== '' && document.execCommand('insertText', false, inserted);
    } catch {
      done = false;
    }
    if (!done || text.value.slice(start, start + inserted.length) !== inserted) {
      text.setRangeText(inserted, start, end, 'end');
      text.dispatchEvent(new Event('input', { bubbles: true }));
    }
    text.setSelectionRange(start + selectFrom, start + selectTo);
  }
  function selection(): string {
    return text.value.slice(text.selectionStart, text.selectionEnd);
  }
  function wrap(marker: string, placeholder: string): void {
    const start = text.selectionStart;
    const end = text.selectionEnd;
    const value = text.value;
    const selected = value.slice(start, end);
    if (selected !== '' && start >= marker.length && value.slice(start - marker.length, start) === marker && value.slice(end, end + marker.length) === marker) {
      // Wrapped already: the markers go.
      text.setSelectionRange(start - marker.length, end + marker.length);
      replaceSelection(selected, 0, selected.length);
      return;
    }
    const inner = selected || placeholder;
    replaceSelection(marker + inner + marker, marker.length, marker.length + inner.length);
  }
  function prefixLines(prefix: string): void {
    const value = text.value;
    const start = text.selectionStart;
    const end = text.selectionEnd;
    const lineStart = start === 0 ? 0 : value.lastIndexOf('\n', start - 1) + 1;
    let lineEnd = value.indexOf('\n', end > start && value.charAt(end - 1) === '\n' ? end - 1 : end);
    if (lineEnd === -1) lineEnd = value.length;
    const lines = value.slice(lineStart, lineEnd).split('\n');
    const all = lines.every((line) => line.indexOf(prefix) === 0);
    const prefixed = lines.map((line) => (all ? line.slice(prefix.length) : prefix + line)).join('\n');
    text.setSelectionRange(lineStart, lineEnd);
    if (prefixed === '') replaceSelection(prefix, prefix.length, prefix.length);
    else replaceSelection(prefixed, prefixed.length, prefixed.length);
  }
  function link(): void {
    const selected = selection();
    if (/^https?:\/\/\S+$/.test(selected)) replaceSelection('[link text](' + selected + ')', 1, 10);
    else {
      const label = selected || 'link text';
      replaceSelection('[' + label + '](https://)', label.length + 3, label.length + 11);
    }
  }
  function code(): void {
    const selected = selection();
    if (selected.indexOf('\n') === -1) wrap('`', 'code');
    else replaceSelection('```\n' + selected.replace(/\n$/, '') + '\n```\n', 4, 4 + selected.replace(/\n$/, '').length);
  }
  function insertImage(name: string): void {
    replaceSelection('![](' + name + ')', 2, 2);
  }
  const ACTIONS: Record<Format, () => void> = {
    bold: () => wrap('**', 'bold text'),
    italic: () => wrap('_', 'italic text'),
    link,
    heading: () => prefixLines('## '),
    quote: () => prefixLines('> '),
    list: () => prefixLines('- '),
    code,
    image: chooseImage,
  };
  function actionOf(name: string | null): (() => void) | undefined {
    return name !== null && Object.prototype.hasOwnProperty.call(ACTIONS, name) ? ACTIONS[name as Format] : undefined;
  }
  text.addEventListener('keydown', (event) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const key = event.key.toLowerCase();
    const action: Format | null = key === 'b' ? 'bold' : key === 'i' ? 'italic' : key === 'k' ? 'link' : null;
    if (!action) return;
    event.preventDefault();
    ACTIONS[action]();
  });

  // --- The toolbar ---
  const toolbar = $('[data-editor-toolbar]');
  const tools: HTMLButtonElement[] = toolbar ? Array.prototype.slice.call(toolbar.querySelectorAll<HTMLButtonElement>('button[data-format]')) : [];
  tools.forEach((button, index) => {
    button.tabIndex = index === 0 ? 0 : -1;
    button.addEventListener('mousedown', (event) => {
      // The text area keeps its selection.
      event.preventDefault();
    });
    button.addEventListener('click', () => {
      const action = actionOf(button.getAttribute('data-format'));
      if (action) action();
    });
    button.addEventListener('keydown', (event) => {
      let next = event.key === 'ArrowRight' ? index + 1 : event.key === 'ArrowLeft' ? index - 1 : event.key === 'Home' ? 0 : event.key === 'End' ? tools.length - 1 : null;
      if (next === null) return;
      event.preventDefault();
      next = (next + tools.length) % tools.length;
      const target = tools[next];
      if (!target) return;
      button.tabIndex = -1;
      target.tabIndex = 0;
      target.focus();
    });
  });

  // --- Images ---
  const picker = $<HTMLInputElement>('[data-image-picker]');
  function chooseImage(): void {
    if (!postFile()) {
      say('Create the post first, then add images.');
      return;
    }
    if (picker) picker.click();
  }
  if (picker) {
    picker.addEventListener('change', () => {
      const file = picker.files && picker.files[0];
      if (file) upload(file);
      picker.value = '';
    });
  }
  /** The largest image the admin takes, from the page; undefined when the page does not say. */
  function maxImageBytes(): number | undefined {
    const element = $('[data-max-bytes]');
    const value = element ? Number(element.getAttribute('data-max-bytes')) : NaN;
    return value > 0 ? value : undefined;
  }
  /** Whether `file` is larger than the admin takes; if so the person is told, and nothing is sent. */
  function isTooLarge(file: File): boolean {
    const limit = maxImageBytes();
    if (limit === undefined || file.size <= limit) return false;
    say('The image ' + (file.name || '') + ' is ' + sizeText(file.size) + ', larger than the ' + sizeText(limit) + ' the admin takes: it was not uploaded. Make it smaller, then try again.');
    return true;
  }
  /** A click on the Images panel's "Upload image" with a file too large: the form, typed text and all, stays. */
  function isUploadTooLarge(submitter: HTMLElement | null): boolean {
    if (!submitter || submitter.getAttribute('formaction') !== '/admin/posts/upload') return false;
    const input = editorForm.querySelector<HTMLInputElement>('input[type="file"][name="image"]');
    const file = input && input.files && input.files[0];
    return !!file && isTooLarge(file);
  }
  function sizeText(bytes: number): string {
    if (bytes < 1000) return bytes + ' bytes';
    if (bytes < 1000000) return (bytes / 1000).toFixed(1) + ' kB';
    return (bytes / 1000000).toFixed(1) + ' MB';
  }
  function showImage(name: string, bytes: number): void {
    const list = $('[data-image-list]');
    if (!list) return;
    const none = $('[data-image-none]');
    if (none) none.hidden = true;
    const item = document.createElement('li');
    const label = document.createElement('code');
    label.textContent = name;
    const size = document.createElement('span');
    size.className = 'admin-hint-inline';
    size.textContent = '(' + sizeText(bytes) + ')';
    const insert = document.createElement('button');
    insert.type = 'button';
    insert.textContent = 'Insert';
    insert.setAttribute('aria-label', 'Insert ' + name);
    insert.setAttribute('data-insert-image', name);
    const remove = document.createElement('button');
    remove.type = 'submit';
    remove.textContent = 'Delete';
    remove.setAttribute('aria-label', 'Delete ' + name);
    remove.setAttribute('formaction', '/admin/posts/images/delete');
    remove.name = 'delete_image';
    remove.value = name;
    [label, document.createTextNode(' '), size, document.createTextNode(' '), insert, document.createTextNode(' '), remove].forEach((part) => {
      item.appendChild(part);
    });
    list.appendChild(item);
  }
  /** The post moved (`<slug>.md` became `<slug>/index.md` with its first image): the form and the address follow. */
  function movedTo(file: unknown): void {
    const input = editorForm.querySelector<HTMLInputElement>('input[name="file"]');
    if (!input || typeof file !== 'string' || file === input.value) return;
    input.value = file;
    if (window.history && typeof window.history.replaceState === 'function') window.history.replaceState(null, '', '/admin/posts/edit?file=' + encodeURIComponent(file));
  }
  function upload(file: File): void {
    if (!postFile()) {
      say('Create the post first, then add images.');
      return;
    }
    if (isTooLarge(file)) return;
    const data = new FormData();
    data.append('csrf_token', csrf);
    data.append('file', postFile());
    data.append('image', file, file.name || 'image');
    say('Uploading the image\u2026');
    post('/admin/posts/upload.json', data).then(
      (answer) => {
        const name = String(answer.name);
        movedTo(answer.file);
        insertImage(name);
        showImage(name, typeof answer.bytes === 'number' ? answer.bytes : file.size);
        say('The image ' + name + ' was stored beside the post and added to the text: describe it between the brackets.');
      },
      (error: Error) => {
        say('The image was not uploaded: ' + error.message);
      },
    );
  }
  function imageOf(files: FileList | null | undefined): File | null {
    for (let index = 0; files && index < files.length; index += 1) {
      const file = files[index];
      if (file && /^image\//.test(file.type)) return file;
    }
    return null;
  }
  text.addEventListener('paste', (event) => {
    const image = imageOf(event.clipboardData && event.clipboardData.files);
    if (!image) return;
    event.preventDefault();
    upload(image);
  });
  text.addEventListener('dragover', (event) => {
    if (event.dataTransfer && Array.prototype.indexOf.call(event.dataTransfer.types, 'Files') !== -1) event.preventDefault();
  });
  text.addEventListener('drop', (event) => {
    const image = imageOf(event.dataTransfer && event.dataTransfer.files);
    if (!image) return;
    event.preventDefault();
    upload(image);
  });
  document.addEventListener('click', (event) => {
    const target = event.target;
    const button = target instanceof Element ? target.closest('[data-insert-image]') : null;
    const name = button ? button.getAttribute('data-insert-image') : null;
    if (name !== null) insertImage(name);
  });

  // --- Shown once the script runs ---
  if (toolbar) toolbar.hidden = false;
  each('[data-editor-keys]', (element) => {
    element.hidden = false;
  });
  each('[data-insert-image]', (element) => {
    element.hidden = false;
  });
  if (liveSection && liveFrame) {
    liveSection.hidden = false;
    renderPreview();
  }
  if (savedState === null) scheduleDraft();
}

startEditor();
