import { api, withQuery } from '../../../api/api-client.ts';
import type { ChannelPackageInstall, ChannelPackagePreview } from '../../../api/api-types.ts';

/**
 * What the operator asked for: a registry spec, or a tarball file they chose; either with the
 * integrity they pin, or none.
 */
export type PackageRequest = ({ source: 'registry'; spec: string } | { source: 'upload'; file: File }) & { integrity: string };

/** A preview, with the bytes it read when the package is an uploaded file: the install sends those. */
export interface Previewed {
  preview: ChannelPackagePreview;
  tarball?: ArrayBuffer;
}

/** Whether two requests ask for the same thing (the same chosen file, not merely the same name). */
export function sameRequest(a: PackageRequest, b: PackageRequest): boolean {
  if (a.integrity !== b.integrity) return false;
  if (a.source === 'registry') return b.source === 'registry' && a.spec === b.spec;
  return b.source === 'upload' && a.file === b.file;
}

/** How the busy line names the request: the spec, or the file's name. */
export function requestLabel(request: PackageRequest): string {
  return request.source === 'registry' ? request.spec : request.file.name;
}

/** Fetches (or, for a file, reads once and sends) the package and has the host check it. */
export async function previewPackage(request: PackageRequest): Promise<Previewed> {
  const pin = request.integrity || undefined;
  if (request.source === 'registry') {
    return { preview: await api.post<ChannelPackagePreview>('/api/channel/packages/preview', { spec: request.spec, ...(pin ? { integrity: pin } : {}) }) };
  }
  const tarball = await request.file.arrayBuffer();
  return { preview: await api.upload<ChannelPackagePreview>(withQuery('/api/channel/packages/upload/preview', { integrity: pin }), tarball, 'application/gzip'), tarball };
}

/**
 * Installs exactly what was previewed, pinned to the integrity the preview showed: the same
 * `name@version` from the registry (a version published in between cannot slip in), or the same
 * bytes of the file (the file changing on disk since does not matter).
 */
export function installPackage({ preview, tarball }: Previewed): Promise<ChannelPackageInstall> {
  if (tarball) return api.upload<ChannelPackageInstall>(withQuery('/api/channel/packages/upload', { integrity: preview.integrity }), tarball, 'application/gzip');
  return api.post<ChannelPackageInstall>('/api/channel/packages', { spec: `${preview.name}@${preview.version}`, integrity: preview.integrity });
}
