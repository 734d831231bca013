import { useRef, useState } from 'react';

/**
 * Text to paste elsewhere (an app manifest), shown as is in a <pre> with a Copy button
 * (clipboard API, else the selection).
 * @example <CopyableText text={manifest} label="Instructions" />
 */
export function CopyableText({ text, label }: { text: string; label: string }) {
  const pre = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // No clipboard (plain HTTP): select the text so the operator copies it by hand, or the browser does.
      const range = document.createRange();
      if (pre.current) range.selectNodeContents(pre.current);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
      document.execCommand('copy');
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <div>
      <pre ref={pre} className="json" aria-label={label}>
        {text}
      </pre>
      <button type="button" onClick={copy}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}
