// The post editor's one script, served at /admin/assets/editor.js (the CSP runs scripts from /admin only, never
// inline ones). Progressive enhancement of the editor page (post-pages/post-editor-page.tsx; docs/admin.md "Posts"):
// without it every button is a plain form submit. With it:
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
//     for its description.
//
// Plain ES2017, no modules: it runs as it is in any browser the admin supports.
export const EDITOR_JS = `(function () {
  'use strict';
  var PREVIEW_MS = 400;
  var DRAFT_IDLE_MS = 1500;
  var DRAFT_MAX_MS = 4000;
  var SUBMIT_WAIT_MS = 2000;
  var FIELDS = ['title', 'slug', 'date', 'tags', 'excerpt', 'cover', 'coverAlt', 'author', 'lang', 'body'];
  var form = document.querySelector('form[data-editor]');
  if (!form || typeof window.fetch !== 'function' || typeof window.URLSearchParams !== 'function') return;
  var textarea = form.querySelector('textarea[name="body"]');
  var csrfInput = form.querySelector('input[name="csrf_token"]');
  if (!textarea || !csrfInput) return;
  var csrf = csrfInput.value;

  function $(selector) {
    return document.querySelector(selector);
  }
  function each(selector, action) {
    Array.prototype.forEach.call(document.querySelectorAll(selector), action);
  }
  function postFile() {
    var input = form.querySelector('input[name="file"]');
    return input ? input.value : '';
  }
  function say(text) {
    var element = $('[data-editor-message]');
    if (element) element.textContent = text;
  }
  /** The text fields, the body and the draft box, as the editor form posts them. */
  function textState() {
    var params = new URLSearchParams();
    FIELDS.forEach(function (name) {
      var element = form.elements.namedItem(name);
      if (element && typeof element.value === 'string') params.append(name, element.value);
    });
    var draft = form.elements.namedItem('draft');
    if (draft && draft.checked) params.append('draft', 'on');
    return params;
  }
  function withPost(params) {
    params.append('csrf_token', csrf);
    if (postFile()) params.append('file', postFile());
    return params;
  }
  /** POSTs \`body\` and gives the JSON answer; rejects with a sentence for the person. */
  function post(url, body) {
    return window.fetch(url, { method: 'POST', body: body, credentials: 'same-origin', cache: 'no-store', redirect: 'error', headers: { accept: 'application/json' } })
      .then(function (response) {
        var type = response.headers.get('content-type') || '';
        if (type.indexOf('application/json') !== 0) throw new Error('The server answered ' + response.status + '.');
        return response.json().then(function (answer) {
          if (!response.ok) throw new Error((answer && typeof answer.message === 'string' && answer.message) || 'The server answered ' + response.status + '.');
          return answer;
        });
      });
  }

  // Unsaved text: what the editor held when the page opened (a page showing typed text is unsaved from the start).
  var savedState = form.hasAttribute('data-unsaved') ? null : textState().toString();
  var leaving = false;
  var stopDrafts = false;
  function isDirty() {
    return savedState === null || textState().toString() !== savedState;
  }

  // --- The unsaved draft on the server ---
  var draftTimer = null;
  var firstUnsentAt = 0;
  var draftInFlight = null;
  var draftAgain = false;
  var lastSent = null;
  function showSaved(at) {
    var element = $('[data-draft-status]');
    if (!element || typeof at !== 'number') return;
    element.textContent = 'Unsaved changes kept on the server at ' + new Date(at).toLocaleTimeString() + '.';
  }
  function scheduleDraft() {
    if (stopDrafts) return;
    var now = Date.now();
    if (draftTimer === null) firstUnsentAt = now;
    else window.clearTimeout(draftTimer);
    draftTimer = window.setTimeout(sendDraft, Math.min(DRAFT_IDLE_MS, Math.max(0, firstUnsentAt + DRAFT_MAX_MS - now)));
  }
  function sendDraft() {
    draftTimer = null;
    if (stopDrafts || !isDirty()) return;
    if (draftInFlight) {
      draftAgain = true;
      return;
    }
    var state = textState();
    var text = state.toString();
    if (text === lastSent) return;
    function settled() {
      draftInFlight = null;
      if (draftAgain) {
        draftAgain = false;
        sendDraft();
      }
    }
    draftInFlight = post('/admin/posts/draft', withPost(state)).then(
      function (answer) {
        lastSent = text;
        showSaved(answer.savedAt);
        settled();
      },
      function () {
        var element = $('[data-draft-status]');
        if (element) element.textContent = 'Your unsaved changes could not be kept on the server just now.';
        settled();
      },
    );
  }
  window.addEventListener('pagehide', function () {
    if (leaving || stopDrafts || !isDirty() || typeof navigator.sendBeacon !== 'function') return;
    var state = textState();
    if (state.toString() !== lastSent) navigator.sendBeacon('/admin/posts/draft', withPost(state));
  });
  window.addEventListener('pageshow', function (event) {
    if (event.persisted) {
      leaving = false;
      stopDrafts = false;
    }
  });

  // --- Leaving ---
  form.addEventListener('submit', function (event) {
    if (draftTimer !== null) window.clearTimeout(draftTimer);
    draftTimer = null;
    stopDrafts = true;
    if (draftInFlight) {
      // A draft on its way would land after the save and be offered again: the submit waits for it (a moment at most).
      event.preventDefault();
      var submitter = event.submitter;
      var wait = new Promise(function (resolve) {
        window.setTimeout(resolve, SUBMIT_WAIT_MS);
        draftInFlight.then(resolve, resolve);
      });
      wait.then(function () {
        draftInFlight = null;
        if (typeof form.requestSubmit === 'function') form.requestSubmit(submitter || undefined);
        else form.submit();
      });
      return;
    }
    leaving = true;
  });
  each('form[data-editor-leave]', function (other) {
    other.addEventListener('submit', function () {
      leaving = true;
    });
  });
  window.addEventListener('beforeunload', function (event) {
    if (leaving || !isDirty()) return;
    event.preventDefault();
    event.returnValue = '';
  });

  // --- The live preview ---
  var liveSection = $('[data-live-preview]');
  var liveFrame = $('[data-live-frame]');
  var previewTimer = null;
  var previewCount = 0;
  var previewed = null;
  function renderPreview() {
    var body = textarea.value;
    if (body === previewed) return;
    var count = ++previewCount;
    var params = new URLSearchParams();
    params.append('body', body);
    post('/admin/posts/preview.json', withPost(params)).then(
      function (answer) {
        if (count !== previewCount || typeof answer.html !== 'string') return;
        previewed = body;
        liveFrame.srcdoc = answer.html;
      },
      function () {},
    );
  }
  function schedulePreview() {
    if (previewTimer !== null) window.clearTimeout(previewTimer);
    previewTimer = window.setTimeout(function () {
      previewTimer = null;
      renderPreview();
    }, PREVIEW_MS);
  }

  form.addEventListener('input', onEdit);
  form.addEventListener('change', onEdit);
  function onEdit(event) {
    var name = event.target && event.target.name;
    if (name !== 'draft' && FIELDS.indexOf(name) === -1) return;
    scheduleDraft();
    if (name === 'body') schedulePreview();
  }

  // --- Editing the selection ---
  /** Replaces the selection with \`text\` (kept in the undo history where the browser can) and selects part of it. */
  function replaceSelection(text, selectFrom, selectTo) {
    var start = textarea.selectionStart;
    var end = textarea.selectionEnd;
    textarea.focus();
    var inserted = false;
    try {
      inserted = text !== '' && document.execCommand('insertText', false, text);
    } catch (error) {
      inserted = false;
    }
    if (!inserted || textarea.value.slice(start, start + text.length) !== text) {
      textarea.setRangeText(text, start, end, 'end');
      textarea.dispatchEvent(new Event('input', { bubbles: true }));
    }
    textarea.setSelectionRange(start + selectFrom, start + selectTo);
  }
  function selection() {
    return textarea.value.slice(textarea.selectionStart, textarea.selectionEnd);
  }
  function wrap(marker, placeholder) {
    var start = textarea.selectionStart;
    var end = textarea.selectionEnd;
    var value = textarea.value;
    var selected = value.slice(start, end);
    if (selected !== '' && start >= marker.length && value.slice(start - marker.length, start) === marker && value.slice(end, end + marker.length) === marker) {
      // Wrapped already: the markers go.
      textarea.setSelectionRange(start - marker.length, end + marker.length);
      replaceSelection(selected, 0, selected.length);
      return;
    }
    var inner = selected || placeholder;
    replaceSelection(marker + inner + marker, marker.length, marker.length + inner.length);
  }
  function prefixLines(prefix) {
    var value = textarea.value;
    var start = textarea.selectionStart;
    var end = textarea.selectionEnd;
    var lineStart = start === 0 ? 0 : value.lastIndexOf('\\n', start - 1) + 1;
    var lineEnd = value.indexOf('\\n', end > start && value.charAt(end - 1) === '\\n' ? end - 1 : end);
    if (lineEnd === -1) lineEnd = value.length;
    var lines = value.slice(lineStart, lineEnd).split('\\n');
    var all = lines.every(function (line) {
      return line.indexOf(prefix) === 0;
    });
    var text = lines
      .map(function (line) {
        return all ? line.slice(prefix.length) : prefix + line;
      })
      .join('\\n');
    textarea.setSelectionRange(lineStart, lineEnd);
    if (text === '') replaceSelection(prefix, prefix.length, prefix.length);
    else replaceSelection(text, text.length, text.length);
  }
  function link() {
    var selected = selection();
    if (/^https?:\\/\\/\\S+$/.test(selected)) replaceSelection('[link text](' + selected + ')', 1, 10);
    else {
      var text = selected || 'link text';
      replaceSelection('[' + text + '](https://)', text.length + 3, text.length + 11);
    }
  }
  function code() {
    var selected = selection();
    if (selected.indexOf('\\n') === -1) wrap('\`', 'code');
    else replaceSelection('\`\`\`\\n' + selected.replace(/\\n$/, '') + '\\n\`\`\`\\n', 4, 4 + selected.replace(/\\n$/, '').length);
  }
  function insertImage(name) {
    var text = '![](' + name + ')';
    replaceSelection(text, 2, 2);
  }
  var ACTIONS = {
    bold: function () { wrap('**', 'bold text'); },
    italic: function () { wrap('_', 'italic text'); },
    link: link,
    heading: function () { prefixLines('## '); },
    quote: function () { prefixLines('> '); },
    list: function () { prefixLines('- '); },
    code: code,
    image: chooseImage,
  };
  textarea.addEventListener('keydown', function (event) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    var key = event.key.toLowerCase();
    var action = key === 'b' ? 'bold' : key === 'i' ? 'italic' : key === 'k' ? 'link' : null;
    if (!action) return;
    event.preventDefault();
    ACTIONS[action]();
  });

  // --- The toolbar ---
  var toolbar = $('[data-editor-toolbar]');
  var tools = toolbar ? Array.prototype.slice.call(toolbar.querySelectorAll('button[data-format]')) : [];
  tools.forEach(function (button, index) {
    button.tabIndex = index === 0 ? 0 : -1;
    button.addEventListener('mousedown', function (event) {
      // The text area keeps its selection.
      event.preventDefault();
    });
    button.addEventListener('click', function () {
      var action = ACTIONS[button.getAttribute('data-format')];
      if (action) action();
    });
    button.addEventListener('keydown', function (event) {
      var next = event.key === 'ArrowRight' ? index + 1 : event.key === 'ArrowLeft' ? index - 1 : event.key === 'Home' ? 0 : event.key === 'End' ? tools.length - 1 : null;
      if (next === null) return;
      event.preventDefault();
      next = (next + tools.length) % tools.length;
      button.tabIndex = -1;
      tools[next].tabIndex = 0;
      tools[next].focus();
    });
  });

  // --- Images ---
  var picker = $('[data-image-picker]');
  function chooseImage() {
    if (!postFile()) {
      say('Create the post first, then add images.');
      return;
    }
    if (picker) picker.click();
  }
  if (picker) {
    picker.addEventListener('change', function () {
      var file = picker.files && picker.files[0];
      if (file) upload(file);
      picker.value = '';
    });
  }
  function sizeText(bytes) {
    if (bytes < 1000) return bytes + ' bytes';
    if (bytes < 1000000) return (bytes / 1000).toFixed(1) + ' kB';
    return (bytes / 1000000).toFixed(1) + ' MB';
  }
  function showImage(name, bytes) {
    var list = $('[data-image-list]');
    if (!list) return;
    var none = $('[data-image-none]');
    if (none) none.hidden = true;
    var item = document.createElement('li');
    var label = document.createElement('code');
    label.textContent = name;
    var size = document.createElement('span');
    size.className = 'admin-hint-inline';
    size.textContent = '(' + sizeText(bytes) + ')';
    var insert = document.createElement('button');
    insert.type = 'button';
    insert.textContent = 'Insert';
    insert.setAttribute('aria-label', 'Insert ' + name);
    insert.setAttribute('data-insert-image', name);
    var remove = document.createElement('button');
    remove.type = 'submit';
    remove.textContent = 'Delete';
    remove.setAttribute('aria-label', 'Delete ' + name);
    remove.setAttribute('formaction', '/admin/posts/images/delete');
    remove.name = 'delete_image';
    remove.value = name;
    [label, document.createTextNode(' '), size, document.createTextNode(' '), insert, document.createTextNode(' '), remove].forEach(function (part) {
      item.appendChild(part);
    });
    list.appendChild(item);
  }
  /** The post moved (\`<slug>.md\` became \`<slug>/index.md\` with its first image): the form and the address follow. */
  function movedTo(file) {
    var input = form.querySelector('input[name="file"]');
    if (!input || typeof file !== 'string' || file === input.value) return;
    input.value = file;
    if (window.history && typeof window.history.replaceState === 'function') window.history.replaceState(null, '', '/admin/posts/edit?file=' + encodeURIComponent(file));
  }
  function upload(file) {
    if (!postFile()) {
      say('Create the post first, then add images.');
      return;
    }
    var data = new FormData();
    data.append('csrf_token', csrf);
    data.append('file', postFile());
    data.append('image', file, file.name || 'image');
    say('Uploading the image\\u2026');
    post('/admin/posts/upload.json', data).then(
      function (answer) {
        movedTo(answer.file);
        insertImage(answer.name);
        showImage(answer.name, answer.bytes);
        say('The image ' + answer.name + ' was stored beside the post and added to the text: describe it between the brackets.');
      },
      function (error) {
        say('The image was not uploaded: ' + error.message);
      },
    );
  }
  function imageOf(files) {
    for (var index = 0; files && index < files.length; index += 1) if (/^image\\//.test(files[index].type)) return files[index];
    return null;
  }
  textarea.addEventListener('paste', function (event) {
    var image = imageOf(event.clipboardData && event.clipboardData.files);
    if (!image) return;
    event.preventDefault();
    upload(image);
  });
  textarea.addEventListener('dragover', function (event) {
    if (event.dataTransfer && Array.prototype.indexOf.call(event.dataTransfer.types, 'Files') !== -1) event.preventDefault();
  });
  textarea.addEventListener('drop', function (event) {
    var image = imageOf(event.dataTransfer && event.dataTransfer.files);
    if (!image) return;
    event.preventDefault();
    upload(image);
  });
  document.addEventListener('click', function (event) {
    var button = event.target && event.target.closest ? event.target.closest('[data-insert-image]') : null;
    if (button) insertImage(button.getAttribute('data-insert-image'));
  });

  // --- Shown once the script runs ---
  if (toolbar) toolbar.hidden = false;
  each('[data-editor-keys]', function (element) {
    element.hidden = false;
  });
  each('[data-insert-image]', function (element) {
    element.hidden = false;
  });
  if (liveSection && liveFrame) {
    liveSection.hidden = false;
    renderPreview();
  }
  if (savedState === null) scheduleDraft();
})();
`;
