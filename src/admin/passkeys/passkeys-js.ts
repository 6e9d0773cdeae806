// The passkeys' one script, served at /admin/assets/passkeys.js (the CSP runs scripts from /admin only, never inline
// ones). On /admin/account/passkeys it runs the add form: registration options from the server, the browser's
// navigator.credentials.create, the answer back to the server. On the sign-in page it shows and runs "Sign in with a
// passkey": authentication options, navigator.credentials.get (any passkey of this site, no name typed), the answer
// back, then on to where the server says. WebAuthn speaks ArrayBuffers and the server base64url text: the two
// small converters below translate. Without WebAuthn the button stays hidden and the add form says what it needs.
// Plain ES2017, no modules.
export const PASSKEYS_JS = `(function () {
  'use strict';
  var supported = typeof window.PublicKeyCredential === 'function' && !!navigator.credentials && typeof window.fetch === 'function';

  function bufferOf(text) {
    var base64 = text.replace(/-/g, '+').replace(/_/g, '/');
    while (base64.length % 4 !== 0) base64 += '=';
    var binary = window.atob(base64);
    var bytes = new Uint8Array(binary.length);
    for (var index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
    return bytes.buffer;
  }
  function textOf(buffer) {
    var bytes = new Uint8Array(buffer);
    var binary = '';
    for (var index = 0; index < bytes.length; index += 1) binary += String.fromCharCode(bytes[index]);
    return window.btoa(binary).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  }
  function credentialsOf(list) {
    return (list || []).map(function (item) {
      var copy = { type: item.type || 'public-key', id: bufferOf(item.id) };
      if (item.transports) copy.transports = item.transports;
      return copy;
    });
  }
  // POSTs fields as a form and reads the JSON answer: { status, body }. Anything but JSON is a page out of date.
  function post(url, fields) {
    return window.fetch(url, {
      method: 'POST',
      body: new URLSearchParams(fields),
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
      cache: 'no-store',
      redirect: 'error'
    }).then(function (response) {
      var type = response.headers.get('content-type') || '';
      if (type.indexOf('application/json') !== 0) throw new Error('not json');
      return response.json().then(function (body) { return { status: response.status, body: body }; });
    });
  }
  function say(element, text) {
    if (element) element.textContent = text;
  }
  function failureText(error) {
    if (error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) return 'No passkey was used. Try again when you are ready.';
    if (error && error.name === 'InvalidStateError') return 'This device holds one of your passkeys already.';
    if (error && (error.message === 'not json' || error.name === 'TypeError')) return 'The page is out of date, or the server could not be reached. Reload the page and try again.';
    return 'The passkey did not work in this browser. Try again, or use another device.';
  }

  // Adding a passkey (/admin/account/passkeys).
  var form = document.querySelector('form[data-passkey-register]');
  if (form) {
    var unsupported = document.querySelector('[data-passkey-unsupported]');
    var status = form.querySelector('[data-passkey-status]');
    if (supported && unsupported) unsupported.hidden = true;
    var busy = false;
    form.addEventListener('submit', function (event) {
      if (!supported) return;
      event.preventDefault();
      if (busy) return;
      busy = true;
      var fields = new FormData(form);
      var base = { csrf_token: String(fields.get('csrf_token') || ''), label: String(fields.get('label') || '') };
      say(status, 'Follow your browser to make the passkey.');
      post(form.getAttribute('data-passkey-register'), base)
        .then(function (answer) {
          if (answer.status === 403 && answer.body.confirm) {
            // The password is due: the form itself asks for it.
            busy = false;
            form.submit();
            return null;
          }
          if (answer.status !== 200) throw { shown: answer.body.problem };
          var options = answer.body.options;
          options.challenge = bufferOf(options.challenge);
          options.user.id = bufferOf(options.user.id);
          options.excludeCredentials = credentialsOf(options.excludeCredentials);
          delete options.hints;
          return navigator.credentials.create({ publicKey: options }).then(function (credential) {
            var response = {
              id: credential.id,
              rawId: textOf(credential.rawId),
              type: credential.type,
              authenticatorAttachment: credential.authenticatorAttachment || undefined,
              clientExtensionResults: credential.getClientExtensionResults(),
              response: {
                clientDataJSON: textOf(credential.response.clientDataJSON),
                attestationObject: textOf(credential.response.attestationObject),
                transports: typeof credential.response.getTransports === 'function' ? credential.response.getTransports() : []
              }
            };
            say(status, 'Checking the passkey.');
            return post(form.getAttribute('data-passkey-finish'), { csrf_token: base.csrf_token, label: base.label, token: answer.body.token, response: JSON.stringify(response) });
          });
        })
        .then(function (answer) {
          if (answer === null) return;
          if (answer.status === 403 && answer.body.confirm) {
            busy = false;
            form.submit();
            return;
          }
          if (answer.status !== 200) throw { shown: answer.body.problem };
          window.location.assign(answer.body.location);
        })
        .catch(function (error) {
          busy = false;
          say(status, error && typeof error.shown === 'string' ? error.shown : failureText(error));
        });
    });
  }

  // Signing in with a passkey (/admin/login).
  var button = document.querySelector('button[data-passkey-sign-in]');
  if (button && supported) {
    var area = document.querySelector('[data-passkey-area]');
    var signInStatus = document.querySelector('[data-passkey-sign-in-status]');
    if (area) area.hidden = false;
    var signingIn = false;
    button.addEventListener('click', function () {
      if (signingIn) return;
      signingIn = true;
      var nextField = document.querySelector('input[name="next"]');
      var next = nextField ? nextField.value : '';
      say(signInStatus, 'Follow your browser to choose a passkey.');
      post(button.getAttribute('data-passkey-options'), {})
        .then(function (answer) {
          if (answer.status !== 200) throw { shown: answer.body.problem };
          var options = answer.body.options;
          options.challenge = bufferOf(options.challenge);
          options.allowCredentials = credentialsOf(options.allowCredentials);
          delete options.hints;
          return navigator.credentials.get({ publicKey: options }).then(function (credential) {
            var response = {
              id: credential.id,
              rawId: textOf(credential.rawId),
              type: credential.type,
              authenticatorAttachment: credential.authenticatorAttachment || undefined,
              clientExtensionResults: credential.getClientExtensionResults(),
              response: {
                clientDataJSON: textOf(credential.response.clientDataJSON),
                authenticatorData: textOf(credential.response.authenticatorData),
                signature: textOf(credential.response.signature),
                userHandle: credential.response.userHandle ? textOf(credential.response.userHandle) : undefined
              }
            };
            say(signInStatus, 'Checking the passkey.');
            return post(button.getAttribute('data-passkey-url'), { token: answer.body.token, response: JSON.stringify(response), next: next });
          });
        })
        .then(function (answer) {
          if (answer.status !== 200) throw { shown: answer.body.problem };
          window.location.assign(answer.body.location);
        })
        .catch(function (error) {
          signingIn = false;
          say(signInStatus, error && typeof error.shown === 'string' ? error.shown : failureText(error));
        });
    });
  }
})();
`;
