import { AppError } from '../errors/app-error.ts';

/** Longest name in UTF-8 bytes: what common filesystems allow for one path component. */
export const MAX_ATTACHMENT_NAME_BYTES = 255;

/**
 * Why a name cannot name a stored attachment, or undefined when it can. A name is one path
 * component and nothing else: no separators, no `..` anywhere, no leading dot (`.`, `..`,
 * hidden and temporary files), no control characters (NUL included), well-formed Unicode, at
 * most 255 UTF-8 bytes. So no name can reach outside its source's folder.
 */
export function attachmentNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.length === 0) return 'is empty';
  if (!name.isWellFormed()) return 'is not well-formed Unicode';
  if (Buffer.byteLength(name, 'utf8') > MAX_ATTACHMENT_NAME_BYTES) return `is longer than ${MAX_ATTACHMENT_NAME_BYTES} bytes`;
  if (hasForbiddenCharacter(name)) return 'holds a path separator or a control character';
  if (name.startsWith('.')) return 'starts with a dot';
  if (name.includes('..')) return 'holds ".."';
  return undefined;
}

/** Both path separators, and the C0 and C1 control characters and DEL (NUL included). */
function hasForbiddenCharacter(name: string): boolean {
  for (const char of name) {
    const code = char.codePointAt(0)!;
    if (char === '/' || char === '\\' || code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

export function isAttachmentName(name: unknown): name is string {
  return attachmentNameProblem(name) === undefined;
}

/** The name, or a 422 BOT_ERR_ATTACHMENT_NAME_INVALID saying what is wrong with it. */
export function checkAttachmentName(name: unknown): string {
  const problem = attachmentNameProblem(name);
  if (problem !== undefined) {
    throw new AppError('BOT_ERR_ATTACHMENT_NAME_INVALID', `The attachment name ${problem}`, { field: 'name' });
  }
  return name as string;
}
