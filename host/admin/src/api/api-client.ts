import { readToken } from '../auth/token-storage.ts';
import { ApiError } from './api-error.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

let onUnauthorized: () => void = () => {};

/** What to do when the API answers 401 (the session sets it: back to sign-in). */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

/** Calls the admin API with the stored token; error answers throw an {@link ApiError}. */
export function apiRequest<T>(method: Method, path: string, body?: unknown): Promise<T> {
  return send<T>(method, path, body === undefined ? undefined : { type: 'application/json', data: JSON.stringify(body) });
}

/** Posts a file's exact bytes as the body (an upload), typed `type`. */
function uploadBytes<T>(path: string, bytes: ArrayBuffer, type: string): Promise<T> {
  return send<T>('POST', path, { type, data: bytes });
}

async function send<T>(method: Method, path: string, body: { type: string; data: BodyInit } | undefined): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = readToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = body.type;
  const response = await fetch(path, { method, headers, body: body === undefined ? null : body.data });
  if (response.status === 204) return undefined as T;
  const parsed = (await response.json().catch(() => undefined)) as { error?: { code: string; message: string; details?: unknown } } | undefined;
  if (!response.ok) {
    if (response.status === 401) onUnauthorized();
    const error = parsed?.error;
    throw new ApiError(response.status, error?.code ?? 'HTTP_ERROR', error?.message ?? `HTTP ${response.status}`, error?.details);
  }
  return parsed as T;
}

export const api = {
  get: <T>(path: string) => apiRequest<T>('GET', path),
  post: <T>(path: string, body?: unknown) => apiRequest<T>('POST', path, body ?? {}),
  put: <T>(path: string, body: unknown) => apiRequest<T>('PUT', path, body),
  patch: <T>(path: string, body: unknown) => apiRequest<T>('PATCH', path, body),
  delete: (path: string) => apiRequest<void>('DELETE', path),
  upload: <T>(path: string, bytes: ArrayBuffer, type: string) => uploadBytes<T>(path, bytes, type),
};

/** `/api/x` + `?a=1&b=2`, leaving out empty values. */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
