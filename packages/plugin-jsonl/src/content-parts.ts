import { basename } from 'node:path';
import type { ContentPart } from '@agentest/kernel';
import { readAttachment as readFile, type Attachment, type AttachmentPolicy } from './attachment.js';
import { InputShapeError, typeName } from './input-error.js';
import { extension, mimeType } from './mime.js';

const FILE_SCHEME = 'file://';

/**
 * Normalises one content part into the OpenAI shape connectors expect, as Yao's input parser does:
 * `image` with a `file://` source becomes an `image_url` data URL, `audio` becomes `input_audio`
 * (base64 + format), `file` becomes a data URL with its file name, and `data` keeps its sources.
 * A bare string inside a parts array is a text part. Other types pass through unchanged.
 *
 * `files` says where relative `file://` paths start (the JSONL file's directory) and which files may
 * be read (see `AttachmentPolicy`). Files are read synchronously: this happens once per case at
 * load, and keeping the loader synchronous keeps the common (file-less) path fast.
 */
export function normaliseContentPart(part: unknown, files: AttachmentPolicy, index: number): ContentPart {
  if (typeof part === 'string') return { type: 'text', text: part };
  if (part === null || typeof part !== 'object' || Array.isArray(part)) {
    throw new InputShapeError(`content part ${index} must be an object with a "type", got ${typeName(part)}`);
  }
  const p = part as Record<string, unknown>;
  if (typeof p.type !== 'string' || !p.type)
    throw new InputShapeError(
      `content part ${index} has no "type" (text, image, image_url, audio, input_audio, file, data)`,
    );
  const where = `content part ${index} (${p.type})`;
  switch (p.type) {
    case 'text':
      if (typeof p.text !== 'string') throw new InputShapeError(`${where} needs a string "text"`);
      return { type: 'text', text: p.text };
    case 'image':
      return image(p, files, where);
    case 'image_url':
      return imageUrl(p, files, where);
    case 'audio':
    case 'input_audio':
      return audio(p, files, where);
    case 'file':
      return file(p, files, where);
    case 'data':
      return data(p, where);
    default:
      return p as ContentPart;
  }
}

function image(p: Record<string, unknown>, files: AttachmentPolicy, where: string): ContentPart {
  const detail = typeof p.detail === 'string' ? p.detail : 'auto';
  const source = typeof p.source === 'string' ? p.source : typeof p.url === 'string' ? p.url : undefined;
  if (!source) throw new InputShapeError(`${where} needs "source": "file://<path>" or "url"`);
  const url = source.startsWith(FILE_SCHEME) ? dataUrl(readAttachment(source, files, where)) : source;
  return { type: 'image_url', image_url: { url, detail } };
}

function imageUrl(p: Record<string, unknown>, files: AttachmentPolicy, where: string): ContentPart {
  const value = typeof p.image_url === 'string' ? { url: p.image_url } : p.image_url;
  if (value === null || typeof value !== 'object' || typeof (value as { url?: unknown }).url !== 'string') {
    throw new InputShapeError(`${where} needs "image_url": {"url": "…"}`);
  }
  const { url, detail } = value as { url: string; detail?: unknown };
  const resolved = url.startsWith(FILE_SCHEME) ? dataUrl(readAttachment(url, files, where)) : url;
  return {
    type: 'image_url',
    image_url: { ...(value as object), url: resolved, detail: typeof detail === 'string' ? detail : 'auto' },
  };
}

function audio(p: Record<string, unknown>, files: AttachmentPolicy, where: string): ContentPart {
  if (typeof p.source === 'string' && p.source.startsWith(FILE_SCHEME)) {
    const attachment = readAttachment(p.source, files, where);
    return {
      type: 'input_audio',
      input_audio: {
        data: attachment.base64,
        format: typeof p.format === 'string' ? p.format : extension(attachment.path),
      },
    };
  }
  if (typeof p.data === 'string' && typeof p.format === 'string')
    return { type: 'input_audio', input_audio: { data: p.data, format: p.format } };
  if (p.input_audio !== null && typeof p.input_audio === 'object')
    return { type: 'input_audio', input_audio: p.input_audio };
  throw new InputShapeError(
    `${where} needs "source": "file://<path>", "data" with "format", or an "input_audio" object`,
  );
}

function file(p: Record<string, unknown>, files: AttachmentPolicy, where: string): ContentPart {
  const name = typeof p.filename === 'string' ? p.filename : typeof p.name === 'string' ? p.name : undefined;
  if (typeof p.source === 'string' && p.source.startsWith(FILE_SCHEME)) {
    const attachment = readAttachment(p.source, files, where);
    return { type: 'file', file: { url: dataUrl(attachment), filename: name ?? basename(attachment.path) } };
  }
  const url = typeof p.url === 'string' ? p.url : typeof p.source === 'string' ? p.source : undefined;
  if (url) return { type: 'file', file: { url, ...(name ? { filename: name } : {}) } };
  if (p.file !== null && typeof p.file === 'object') return { type: 'file', file: p.file };
  throw new InputShapeError(`${where} needs "source": "file://<path>", "url", or a "file" object`);
}

function data(p: Record<string, unknown>, where: string): ContentPart {
  const holder =
    p.data !== null && typeof p.data === 'object' && !Array.isArray(p.data) ? (p.data as Record<string, unknown>) : p;
  if (!Array.isArray(holder.sources))
    throw new InputShapeError(`${where} needs "sources": [{"type", "id", …}] (or "data": {"sources": […]})`);
  return { type: 'data', data: { sources: holder.sources } };
}

/** The file a `file://` reference names, read under the suite's policy. */
function readAttachment(reference: string, files: AttachmentPolicy, where: string): Attachment {
  return readFile(reference, reference.slice(FILE_SCHEME.length), files, where);
}

function dataUrl(attachment: Attachment): string {
  return `data:${mimeType(attachment.path)};base64,${attachment.base64}`;
}
