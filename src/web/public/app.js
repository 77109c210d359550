// The dashboard's few behaviours beyond htmx: copy buttons, confirmations, and uploads through a
// signed URL with a progress bar (XMLHttpRequest, because fetch() reports no upload progress).
'use strict';

const csrf = () => document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';

async function postJson(url, body) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': csrf() },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data?.message ?? `The server answered ${res.status}.`);
  return data;
}

function putWithProgress(url, file, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.upload.addEventListener('progress', (e) => e.lengthComputable && onProgress(e.loaded / e.total));
    xhr.addEventListener('load', () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let message = `The upload failed (${xhr.status}).`;
      try {
        message = JSON.parse(xhr.responseText).message ?? message;
      } catch {
        /* not JSON */
      }
      reject(new Error(message));
    });
    xhr.addEventListener('error', () => reject(new Error('The upload was interrupted. Check the connection and try again.')));
    xhr.send(file);
  });
}

function setupUpload(form) {
  const input = form.querySelector('input[type=file]');
  const bar = form.querySelector('progress');
  const status = form.querySelector('[role=status]');
  const zone = form.querySelector('[data-dropzone]');
  const button = form.querySelector('button[type=submit]');
  const mindId = form.dataset.mind;

  for (const type of ['dragenter', 'dragover']) {
    zone.addEventListener(type, (e) => {
      e.preventDefault();
      zone.classList.add('dragging');
    });
  }
  for (const type of ['dragleave', 'drop']) zone.addEventListener(type, () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    if (e.dataTransfer?.files?.length) {
      input.files = e.dataTransfer.files;
      status.textContent = `Selected ${input.files[0].name}. Press “Upload and analyse”.`;
    }
  });

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const file = input.files?.[0];
    if (!file) {
      status.textContent = 'Choose a transcript file first.';
      input.focus();
      return;
    }
    button.disabled = true;
    bar.value = 0;
    try {
      status.textContent = 'Preparing the upload…';
      const signed = await postJson(`/minds/${mindId}/uploads`, { fileName: file.name, contentType: file.type || undefined });
      status.textContent = `Uploading ${file.name}…`;
      // This service's own receiver is reached on the page's origin (PUBLIC_URL may name another
      // host for the same server); an S3 presigned URL is used as it is (the bucket needs CORS).
      const target = new URL(signed.signedUrl);
      const url = target.pathname.startsWith('/uploads/') ? target.pathname + target.search : signed.signedUrl;
      await putWithProgress(url, file, (f) => {
        bar.value = Math.round(f * 100);
        bar.textContent = `${bar.value}%`;
      });
      bar.value = 100;
      const speaker = form.querySelector('[name=speaker]')?.value ?? '';
      await postJson(`/minds/${mindId}/snapshots`, { artifactId: signed.artifactId, speaker });
      status.textContent = `Uploaded ${file.name}. Analysing it now: see Snapshots.`;
      form.reset();
      document.body.dispatchEvent(new Event('snapshots-changed'));
    } catch (err) {
      status.textContent = err.message;
    } finally {
      button.disabled = false;
    }
  });
}

document.addEventListener('click', async (e) => {
  const button = e.target.closest?.('[data-copy]');
  if (!button) return;
  const field = document.querySelector(button.dataset.copy);
  const note = button.parentElement.querySelector('.copied');
  try {
    await navigator.clipboard.writeText(field.value);
  } catch {
    field.select();
    document.execCommand('copy');
  }
  if (note) note.textContent = 'Copied.';
});

document.addEventListener('submit', (e) => {
  const message = e.target.dataset?.confirm;
  if (message && !window.confirm(message)) e.preventDefault();
});

document.addEventListener('DOMContentLoaded', () => {
  for (const form of document.querySelectorAll('form#upload')) setupUpload(form);
});
