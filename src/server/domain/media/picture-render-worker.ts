/**
 * The picture render worker (a worker thread): decodes and encodes uploaded pictures off the server's
 * main thread, so their buffers, native callbacks and garbage never pause a search (decision 013).
 * One message in (`{ id, file }`), one out (`{ id, outcome }` or `{ id, error }`), the encoded files
 * transferred, not copied.
 */
import { parentPort } from 'node:worker_threads';
import { renderPicture, type UploadedPictureFile } from './picture-processing.ts';

if (!parentPort) throw new Error('picture-render-worker runs as a worker thread');
const port = parentPort;

port.on('message', (message: { id: number; file: UploadedPictureFile }) => {
  renderPicture(message.file).then(
    (outcome) => {
      if (!outcome.ok) {
        port.postMessage({ id: message.id, outcome });
        return;
      }
      // Each file in its own exact ArrayBuffer (sharp's may be pooled), handed over without a copy.
      const files = outcome.picture.files.map((f) => ({ ...f, bytes: new Uint8Array(f.bytes) }));
      port.postMessage(
        { id: message.id, outcome: { ...outcome, picture: { ...outcome.picture, files } } },
        files.map((f) => f.bytes.buffer),
      );
    },
    (error: unknown) => port.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
