import type { WorkflowProblem } from '../../../api/api-types.ts';

/** The server's problems as a list; each entry moves the editor's cursor to its place. */
export function ProblemList({ problems, onSelect }: { problems: WorkflowProblem[]; onSelect: (problem: WorkflowProblem) => void }) {
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
