import { readFileSync, statSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import type { ContentPart } from '@agentest/kernel';
import { InputShapeError, typeName } from './input-error.js';
import { extension, mimeType } from './mime.js';

const FILE_SCHEME = 'file://';

/**
 * Normalises one content part into the OpenAI shape connectors expect, as Yao's input parser does:
 * `image` with a `file://` source becomes an `image_url` data URL, `audio` becomes `input_audio`
 * (base64 + format), `file` becomes a data URL with its file name, and `data` keeps its sources.
 * A bare string inside a parts array is a text part. Other types pass through unchanged.
 *
 * `baseDir` is where relative `file://` paths start: the JSONL file's directory, or the working
 * directory for a direct message. Files are read synchronously: this happens once per case at load,
 * and keeping the loader synchronous keeps the common (file-less) path fast.
 */
export function normaliseContentPart(part: unknown, baseDir: string, index: number): ContentPart {
  if (typeof part === 'string') return { type: 'text', text: part };
  if (part === null || typeof part !== 'object' || Array.isArray(part)) {
    throw new InputShapeError(`content part ${index} must be an object with a "type", got ${typeName(part)}`);
  }
  const p = part as Record<string, unknown>;
  if (typeof p.type !== 'string' || !p.type) throw new InputShapeError(`content part ${index} has no "type" (text, image, image_url, audio, input_audio, file, data)`);
  const where = `content part ${index} (${p.type})`;
  switch (p.type) {
    case 'text':
      if (typeof p.text !== 'string') throw new InputShapeError(`${where} needs a string "text"`);
      return { type: 'text', text: p.text };
    case 'image':
      return image(p, baseDir, where);
    case 'image_url':
      return imageUrl(p, baseDir, where);
    case 'audio':
    case 'input_audio':
      return audio(p, baseDir, where);
    case 'file':
      return file(p, baseDir, where);
    case 'data':
      return data(p, where);
    default:
      return p as ContentPart;
  }
}

function image(p: Record<string, unknown>, baseDir: string, where: string): ContentPart {
  const detail = typeof p.detail === 'string' ? p.detail : 'auto';
  const source = typeof p.source === 'string' ? p.source : typeof p.url === 'string' ? p.url : undefined;
  if (!source) throw new InputShapeError(`${where} needs "source": "file://<path>" or "url"`);
  const url = source.startsWith(FILE_SCHEME) ? dataUrl(readAttachment(source, baseDir, where)) : source;
  return { type: 'image_url', image_url: { url, detail } };
}

function imageUrl(p: Record<string, unknown>, baseDir: string, where: string): ContentPart {
  const value = typeof p.image_url === 'string' ? { url: p.image_url } : p.image_url;
  if (value === null || typeof value !== 'object' || typeof (value as { url?: unknown }).url !== 'string') {
    throw new InputShapeError(`${where} needs "image_url": {"url": "…"}`);
  }
  const { url, detail } = value as { url: string; detail?: unknown };
  const resolved = url.startsWith(FILE_SCHEME) ? dataUrl(readAttachment(url, baseDir, where)) : url;
  return { type: 'image_url', image_url: { ...(value as object), url: resolved, detail: typeof detail === 'string' ? detail : 'auto' } };
}

function audio(p: Record<string, unknown>, baseDir: string, where: string): ContentPart {
  if (typeof p.source === 'string' && p.source.startsWith(FILE_SCHEME)) {
    const attachment = readAttachment(p.source, baseDir, where);
    return { type: 'input_audio', input_audio: { data: attachment.bytes.toString('base64'), format: typeof p.format === 'string' ? p.format : extension(attachment.path) } };
  }
  if (typeof p.data === 'string' && typeof p.format === 'string') return { type: 'input_audio', input_audio: { data: p.data, format: p.format } };
  if (p.input_audio !== null && typeof p.input_audio === 'object') return { type: 'input_audio', input_audio: p.input_audio };
  throw new InputShapeError(`${where} needs "source": "file://<path>", "data" with "format", or an "input_audio" object`);
}

function file(p: Record<string, unknown>, baseDir: string, where: string): ContentPart {
  const name = typeof p.filename === 'string' ? p.filename : typeof p.name === 'string' ? p.name : undefined;
  if (typeof p.source === 'string' && p.source.startsWith(FILE_SCHEME)) {
    const attachment = readAttachment(p.source, baseDir, where);
    return { type: 'file', file: { url: dataUrl(attachment), filename: name ?? basename(attachment.path) } };
  }
  const url = typeof p.url === 'string' ? p.url : typeof p.source === 'string' ? p.source : undefined;
  if (url) return { type: 'file', file: { url, ...(name ? { filename: name } : {}) } };
  if (p.file !== null && typeof p.file === 'object') return { type: 'file', file: p.file };
  throw new InputShapeError(`${where} needs "source": "file://<path>", "url", or a "file" object`);
}

function data(p: Record<string, unknown>, where: string): ContentPart {
  const holder = p.data !== null && typeof p.data === 'object' && !Array.isArray(p.data) ? (p.data as Record<string, unknown>) : p;
  if (!Array.isArray(holder.sources)) throw new InputShapeError(`${where} needs "sources": [{"type", "id", …}] (or "data": {"sources": […]})`);
  return { type: 'data', data: { sources: holder.sources } };
}

interface Attachment {
  path: string;
  bytes: Buffer;
}

/** Reads the file a `file://` reference names: absolute as given, relative from `baseDir`. */
function readAttachment(reference: string, baseDir: string, where: string): Attachment {
  const raw = reference.slice(FILE_SCHEME.length);
  if (!raw) throw new InputShapeError(`${where}: "${reference}" names no file`);
  const path = isAbsolute(raw) ? raw : resolve(baseDir, raw);
  let isFile = false;
  try {
    isFile = statSync(path).isFile();
  } catch {
    throw new InputShapeError(`${where}: file not found: ${path} (from "${reference}"; relative paths start at ${baseDir})`);
  }
  if (!isFile) throw new InputShapeError(`${where}: ${path} is not a file (from "${reference}")`);
  return { path, bytes: readFileSync(path) };
}

function dataUrl(attachment: Attachment): string {
  return `data:${mimeType(attachment.path)};base64,${attachment.bytes.toString('base64')}`;
}
