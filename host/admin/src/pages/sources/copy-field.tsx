import { useRef, useState } from 'react';

/** A read-only value with a Copy button (clipboard API, else the selection). */
export function CopyField({ value, label }: { value: string; label: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      input.current?.select();
      document.execCommand('copy');
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  return (
    <span className="inline">
      <input ref={input} readOnly value={value} aria-label={label} size={Math.min(60, value.length)} onFocus={(e) => e.target.select()} />
      <button type="button" onClick={copy}>
        {copied ? 'Copied' : 'Copy'}
      </button>
    </span>
  );
}
