import { ACTION_SPECS, isActionName } from '../runtime/action-specs.ts';
import { modelSettingsProblems } from '../models/model-settings.ts';
import type { FoundProblem } from './workflow-problem.ts';
import { referenceProblem, type WorkflowParts } from './workflow-parts.ts';

/**
 * Model defs have settings their provider accepts (`openai-compatible` or `offline`, the rules
 * of host/workflows/models); every model binding names a `kind: model` def; and every AI task
 * has a model, its own binding or the workflow's.
 */
export function checkModels(parts: WorkflowParts): FoundProblem[] {
  return [...settingsProblems(parts), ...workflowBindingProblems(parts), ...[...parts.tasks].flatMap(([name]) => taskModelProblems(parts, name))];
}

function settingsProblems(parts: WorkflowParts): FoundProblem[] {
  return [...parts.models].flatMap(([name, model]) =>
    modelSettingsProblems(model.settings).map(({ path, message }): FoundProblem => ({
      path: ['defs', name, 'settings', ...path],
      code: path[0] === 'provider' ? 'BOT_ERR_WORKFLOW_MODEL_PROVIDER_UNKNOWN' : 'BOT_ERR_AI_MODEL_SETTINGS_INVALID',
      message,
    })),
  );
}

function workflowBindingProblems(parts: WorkflowParts): FoundProblem[] {
  const model = parts.bindings?.model;
  const problem = model === undefined ? undefined : referenceProblem(parts, model, 'model');
  return problem ? [{ path: ['bindings', 'model'], code: 'BOT_ERR_WORKFLOW_MODEL_UNKNOWN', message: problem }] : [];
}

function taskModelProblems(parts: WorkflowParts, name: string): FoundProblem[] {
  const task = parts.tasks.get(name)!;
  const model = task.bindings?.model;
  if (model !== undefined) {
    const problem = referenceProblem(parts, model, 'model');
    return problem ? [{ path: ['defs', name, 'bindings', 'model'], code: 'BOT_ERR_WORKFLOW_MODEL_UNKNOWN', message: problem }] : [];
  }
  if (!isActionName(task.action) || !ACTION_SPECS[task.action].ai || parts.bindsModel) return [];
  return [{
    path: ['defs', name],
    code: 'BOT_ERR_WORKFLOW_MODEL_MISSING',
    message: `${task.action} is an AI action and needs a model: set bindings.model on the task or on the workflow`,
  }];
}
