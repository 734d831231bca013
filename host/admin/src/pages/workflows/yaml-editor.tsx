import { useRef } from 'react';
import type { WorkflowProblem } from '../../api/api-types.ts';

/**
 * A monospace textarea with line numbers. Each problem shows at its line (a marked line number
 * and the message beside the text) and in a list below; a list entry moves the caret there.
 */
export function YamlEditor({
  value,
  onChange,
  problems,
  readOnly,
}: {
  value: string;
  onChange: (value: string) => void;
  problems: WorkflowProblem[];
  readOnly?: boolean;
}) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const lines = value.split('\n');
  const byLine = new Map<number, WorkflowProblem[]>();
  for (const problem of problems) if (problem.line) byLine.set(problem.line, [...(byLine.get(problem.line) ?? []), problem]);
  const goTo = (problem: WorkflowProblem) => {
    if (!problem.line || !textarea.current) return;
    const start = lines.slice(0, problem.line - 1).reduce((offset, line) => offset + line.length + 1, 0) + (problem.column ?? 1) - 1;
    textarea.current.focus();
    textarea.current.setSelectionRange(start, start);
  };
  return (
    <>
      <div className="yaml-editor">
        <div className="gutter" aria-hidden="true">
          {lines.map((_, index) => (
            <div key={index} className={byLine.has(index + 1) ? 'bad' : undefined} data-line={index + 1}>
              {index + 1}
            </div>
          ))}
        </div>
        <div className="code">
          <textarea
            ref={textarea}
            aria-label="Workflow YAML"
            spellCheck={false}
            wrap="off"
            rows={lines.length}
            value={value}
            readOnly={readOnly ?? false}
            onChange={(event) => onChange(event.target.value)}
          />
          {[...byLine].map(([line, here]) => (
            <div key={line} className="line-problem" data-line={line} style={{ top: `calc(${line - 1} * var(--line-height) + 0.3rem)` }}>
              {here.map((problem) => problem.message).join('; ')}
            </div>
          ))}
        </div>
      </div>
      <ProblemList problems={problems} onSelect={goTo} />
    </>
  );
}

function ProblemList({ problems, onSelect }: { problems: WorkflowProblem[]; onSelect: (problem: WorkflowProblem) => void }) {
  if (problems.length === 0) return null;
  return (
    <ul className="problems" aria-label="Problems">
      {problems.map((problem, index) => (
        <li key={index} data-line={problem.line}>
          <button type="button" className="link" onClick={() => onSelect(problem)}>
            {problem.line ? `Line ${problem.line}${problem.column ? `, column ${problem.column}` : ''}` : 'Document'}
          </button>
          {problem.path ? ` (${problem.path})` : ''}: {problem.message} <code>{problem.code}</code>
        </li>
      ))}
    </ul>
  );
}
