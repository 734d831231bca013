import { parse } from 'yaml';

/** The workflow's flow, read-only, beside its YAML (a first cut: the steps in order). */
export function FlowView(props: { yaml: string; failingStep?: string }) {
  const steps = readSteps(props.yaml);
  return (
    <figure className="flow-view" aria-label="Flow">
      <ol>
        {steps.map((step, index) => (
          <li key={index} className={step === props.failingStep ? 'flow-step failed' : 'flow-step'}>
            {step}
            {step === props.failingStep && ' (failed)'}
          </li>
        ))}
      </ol>
    </figure>
  );
}

function readSteps(yaml: string): string[] {
  try {
    const flow = (parse(yaml) as { flow?: { do?: unknown }[] } | null)?.flow;
    return Array.isArray(flow) ? flow.map((step) => String(step?.do)) : [];
  } catch {
    return [];
  }
}
