// bindery passkeys: the browser side of registering and signing in with a
// passkey (docs/auth.md "Passkeys"). Served by bindery's assets as
// bindery/passkeys.js; no inline script, so the default Content-Security-Policy
// allows it. Buttons say what to do:
//
//   <button type="button" data-passkey="register" data-options="/user/passkeys/options"
//           data-verify="/user/passkeys" data-name-field="passkey-name">Add a passkey</button>
//   <button type="button" data-passkey="login" data-options="/passkeys/login/options"
//           data-verify="/passkeys/login">Sign in with a passkey</button>
//   <p data-passkey-message role="alert"></p>
//
// The CSRF token comes from <meta name="csrf-token">. After a registration
// the page reloads; after a sign-in the browser goes where the answer's
// `redirect` says.
(() => {
  const b64urlToBytes = (text) => {
    const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  };
  const bytesToB64url = (buffer) => {
    const bytes = new Uint8Array(buffer);
    let binary = '';
    for (const b of bytes) binary += String.fromCharCode(b);
    return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  };
  const csrf = () => document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';
  const post = async (url, body) => {
    const res = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': csrf() },
      body: JSON.stringify(body ?? {}),
    });
    const text = await res.text();
    const data = text === '' ? null : JSON.parse(text);
    if (!res.ok) {
      const errors = data?.errors ?? {};
      throw new Error(Object.values(errors)[0] ?? data?.detail ?? `The server answered ${res.status}.`);
    }
    return data;
  };
  const creationOptions = (o) =>
    typeof PublicKeyCredential.parseCreationOptionsFromJSON === 'function'
      ? PublicKeyCredential.parseCreationOptionsFromJSON(o)
      : {
          ...o,
          challenge: b64urlToBytes(o.challenge),
          user: { ...o.user, id: b64urlToBytes(o.user.id) },
          excludeCredentials: (o.excludeCredentials ?? []).map((c) => ({ ...c, id: b64urlToBytes(c.id) })),
        };
  const requestOptions = (o) =>
    typeof PublicKeyCredential.parseRequestOptionsFromJSON === 'function'
      ? PublicKeyCredential.parseRequestOptionsFromJSON(o)
      : {
          ...o,
          challenge: b64urlToBytes(o.challenge),
          allowCredentials: (o.allowCredentials ?? []).map((c) => ({ ...c, id: b64urlToBytes(c.id) })),
        };
  const toJSON = (credential) => {
    if (typeof credential.toJSON === 'function') return credential.toJSON();
    const r = credential.response;
    const response = { clientDataJSON: bytesToB64url(r.clientDataJSON) };
    if (r.attestationObject) {
      response.attestationObject = bytesToB64url(r.attestationObject);
      response.transports = typeof r.getTransports === 'function' ? r.getTransports() : [];
    } else {
      response.authenticatorData = bytesToB64url(r.authenticatorData);
      response.signature = bytesToB64url(r.signature);
      if (r.userHandle) response.userHandle = bytesToB64url(r.userHandle);
    }
    return {
      id: credential.id,
      rawId: bytesToB64url(credential.rawId),
      type: credential.type,
      response,
      clientExtensionResults: credential.getClientExtensionResults(),
      authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
    };
  };
  const say = (text) => {
    const place = document.querySelector('[data-passkey-message]');
    if (place) place.textContent = text;
  };
  const run = async (button) => {
    const kind = button.dataset.passkey;
    say('');
    button.disabled = true;
    try {
      const options = await post(button.dataset.options);
      if (kind === 'register') {
        const credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
        const field = button.dataset.nameField ? document.getElementById(button.dataset.nameField) : null;
        await post(button.dataset.verify, { name: field?.value ?? '', credential: toJSON(credential) });
        window.location.reload();
      } else {
        const credential = await navigator.credentials.get({ publicKey: requestOptions(options) });
        const answer = await post(button.dataset.verify, { credential: toJSON(credential) });
        window.location.assign(answer?.redirect ?? '/');
      }
    } catch (error) {
      say(error?.name === 'NotAllowedError' ? 'The passkey prompt was closed.' : String(error?.message ?? error));
    } finally {
      button.disabled = false;
    }
  };
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('[data-passkey]') : null;
    if (button === null || !('PublicKeyCredential' in window)) return;
    event.preventDefault();
    void run(button);
  });
})();
