import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { encodeFrame, FrameReader, FrameWriter } from '../../../host/channels/runner/runner-frames.ts';

/** A socket stand-in that records each write it is asked to make: one entry per system call. */
class RecordingSocket extends Writable {
  readonly writes: Buffer[][] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.writes.push([chunk]);
    done();
  }

  override _writev(chunks: { chunk: Buffer }[], done: (error?: Error | null) => void): void {
    this.writes.push(chunks.map(({ chunk }) => chunk));
    done();
  }
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test('frames written in one turn of the event loop leave in one write, in order; a later turn writes its own', async () => {
  const socket = new RecordingSocket();
  const writer = new FrameWriter(socket);
  for (let id = 1; id <= 10; id += 1) writer.write({ type: 'runner.call', id });
  assert.equal(socket.writes.length, 0, 'nothing leaves before the turn ends');
  await nextTurn();
  assert.equal(socket.writes.length, 1);
  const reader = new FrameReader(1024);
  assert.deepEqual(reader.push(Buffer.concat(socket.writes[0]!)), Array.from({ length: 10 }, (_, index) => ({ type: 'runner.call', id: index + 1 })));

  writer.write({ type: 'runner.close' });
  await nextTurn();
  assert.equal(socket.writes.length, 2);
  assert.deepEqual(reader.push(Buffer.concat(socket.writes[1]!)), [{ type: 'runner.close' }]);
});

test('flush sends what the turn wrote at once, for a frame whose moment matters', async () => {
  const socket = new RecordingSocket();
  const writer = new FrameWriter(socket);
  writer.write({ type: 'runner.send.started', id: 1 });
  writer.flush();
  assert.equal(socket.writes.length, 1, 'the frame left before the turn ended');
  writer.write({ type: 'runner.reply', id: 1 });
  await nextTurn();
  assert.equal(socket.writes.length, 2);
  assert.deepEqual(new FrameReader(1024).push(Buffer.concat(socket.writes.flat())), [{ type: 'runner.send.started', id: 1 }, { type: 'runner.reply', id: 1 }]);
});

test('bytes travel as bytes; a frame without them parses the same; an escaped key stays a plain object', () => {
  const reader = new FrameReader(1024);
  const [withBytes, withoutBytes] = reader.push(Buffer.concat([encodeFrame({ body: Buffer.from('héllo') }), encodeFrame({ text: 'no bytes here', nested: [{ $other: 1 }] })]));
  assert.ok(Buffer.isBuffer((withBytes as { body: unknown }).body));
  assert.equal((withBytes as { body: Buffer }).body.toString(), 'héllo');
  assert.deepEqual(withoutBytes, { text: 'no bytes here', nested: [{ $other: 1 }] });

  const json = Buffer.from('{"body":{"\\u0024bytes":"aGk="}}');
  const header = Buffer.alloc(4);
  header.writeUInt32BE(json.length);
  assert.deepEqual(reader.push(Buffer.concat([header, json])), [{ body: { $bytes: 'aGk=' } }]);
});

test('the reader tells each message its frame: the bytes (header included) and the parse, for a frame split across chunks too', () => {
  const reader = new FrameReader(1 << 20);
  const small = encodeFrame({ type: 'runner.log', message: 'hi' });
  const large = encodeFrame({ type: 'runner.reply', id: 1, value: 'x'.repeat(10_000) });
  assert.deepEqual(reader.push(large.subarray(0, 5_000)), []);
  assert.equal(reader.framed.length, 0);
  assert.equal(reader.push(Buffer.concat([large.subarray(5_000), small])).length, 2);
  assert.deepEqual(reader.framed.map((frame) => frame.bytes), [large.length, small.length]);
  assert.ok(reader.framed.every((frame) => frame.parseMs >= 0));
  reader.push(Buffer.alloc(0));
  assert.equal(reader.framed.length, 0, 'each push tells only its own frames');
});
