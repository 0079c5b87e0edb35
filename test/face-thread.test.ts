import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { decodeImage } from '../src/face/decode-image.ts';
import { detectFacesUprightOffThread, shutdownFaceThread } from '../src/face/face-thread.ts';
import { selfiePng } from './helpers/face-images.ts';

// The face model's thread (src/face/face-thread.ts): a thread that ends (idle, or shut down) while
// the next one already serves a request must fail only what it held itself. Its exit came after
// its successor had started, and rejected the successor's request.
describe("the face model's thread", { timeout: 120_000 }, () => {
  after(() => shutdownFaceThread());

  test('a request sent while the previous thread is ending is answered by the next one', async () => {
    const image = decodeImage(selfiePng('alice'));
    assert.ok(image);
    assert.equal((await detectFacesUprightOffThread(image, 5)).faces.length, 1);
    const ending = shutdownFaceThread();
    const next = detectFacesUprightOffThread(image, 5);
    await ending;
    assert.equal((await next).faces.length, 1);
  });
});
