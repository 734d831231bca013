import { Markdown } from 'markdown-to-jsx/react';
import type { AnchorHTMLAttributes, ImgHTMLAttributes } from 'react';
import { safeUrl } from './safe-url.ts';

/** A link that opens apart from the panel and tells the target nothing about it. */
function SafeLink({ href, children, title }: AnchorHTMLAttributes<HTMLAnchorElement>) {
  const url = href === undefined ? null : safeUrl(href);
  if (url === null) return <span>{children}</span>;
  return (
    <a href={url} title={title} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/** Descriptions load nothing: an image shows its alt text. */
function ImageAlt({ alt }: ImgHTMLAttributes<HTMLImageElement>) {
  return <span>{alt}</span>;
}

const OPTIONS = {
  // HTML in a description is text, never markup: it is shown as written.
  disableParsingRawHTML: true,
  ignoreHTMLBlocks: true,
  disableAutoLink: false,
  forceWrapper: true,
  wrapper: 'span',
  sanitizer: (value: string) => safeUrl(value),
  overrides: { a: { component: SafeLink }, img: { component: ImageAlt } },
} as const;

/**
 * Renders a short markdown text from a schema (a field's `description`): inline code, emphasis
 * and links, with no raw HTML; links are http(s) or relative and get `rel="noopener noreferrer"`.
 * @example <MarkdownText text="Sent to `{api_url}/messages`." />
 */
export function MarkdownText({ text, className }: { text: string; className?: string }) {
  return (
    <Markdown className={className ? `markdown ${className}` : 'markdown'} options={OPTIONS}>
      {text}
    </Markdown>
  );
}
