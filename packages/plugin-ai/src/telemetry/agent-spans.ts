/**
 * Spans of an Agent's work, made from its public events (agent/events.ts), never from its
 * internals: a turn (`invoke_agent ai`), each model call under it (`chat <model>`: the model, the
 * token counts and the cached input tokens where the usage has them) and each step
 * (`execute_tool <tool>`: the tool, its level, how it ended, its duration). Names follow
 * OpenTelemetry's GenAI conventions. What a step was asked to do (arguments, paths, commands) and
 * what it printed are never attributes: the tool's name and the outcome only.
 */
import { context, SpanStatusCode, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import type { AgentEvent, AgentListener } from '../agent/events';
import type { ToolResult } from '../agent/runner-types';
import { stepOutcome } from '../agent/step-outcome';

/** What is followed: anything that reports agent events (the Agent's `on`). */
export interface EventSource {
  on(listener: AgentListener): () => void;
}

interface ModelCall {
  span: Span;
  named: boolean;
}

/** How a step ended, in one word: `exit 0`, `declined`, `blocked`, `error`, `applied`… */
export function outcomeOf(result: ToolResult): string {
  const happened = stepOutcome(result);
  if (happened === 'blocked_by_hook' || happened === 'sandbox_stopped') return happened;
  if (typeof result.status === 'string') return result.status;
  return typeof result.exitCode === 'number' ? `exit ${result.exitCode}` : 'ran';
}

/** Token attributes of a usage (OpenTelemetry GenAI names). */
function usageAttributes(usage: { input_tokens: number; output_tokens: number; cached_tokens?: number }): Attributes {
  return {
    'gen_ai.usage.input_tokens': usage.input_tokens,
    'gen_ai.usage.output_tokens': usage.output_tokens,
    ...(usage.cached_tokens !== undefined ? { 'gen_ai.usage.cache_read.input_tokens': usage.cached_tokens } : {}),
  };
}

/** Follow `source` with `tracer`; returns the function that stops following (open spans end). */
export function traceAgent(source: EventSource, tracer: Tracer): () => void {
  let turn: Span | undefined;
  let model: ModelCall | undefined;
  const steps = new Map<string, Span>();
  const under = () => (turn ? trace.setSpan(context.active(), turn) : context.active());

  const endModel = (error?: string): void => {
    if (!model) return;
    if (error) model.span.setStatus({ code: SpanStatusCode.ERROR, message: error });
    model.span.end();
    model = undefined;
  };
  const endOpen = (): void => {
    endModel();
    for (const span of steps.values()) span.end();
    steps.clear();
  };

  const on = (event: AgentEvent): void => {
    switch (event.type) {
      case 'turn_start':
        endOpen();
        turn?.end();
        turn = tracer.startSpan('invoke_agent ai', { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'ai', 'gen_ai.conversation.id': event.sessionId } });
        return;
      case 'request':
        endModel();
        model = {
          named: false,
          span: tracer.startSpan('chat', { attributes: { 'gen_ai.operation.name': 'chat', 'slothtool.request.purpose': event.purpose, 'slothtool.request.messages': event.messages, 'slothtool.request.minimal': event.minimal } }, under()),
        };
        return;
      case 'wait':
        if (model && !model.named && event.model) {
          model.named = true;
          model.span.updateName(`chat ${event.model}`);
          model.span.setAttribute('gen_ai.request.model', event.model);
        }
        return;
      case 'usage':
        if (!model) return;
        model.span.setAttributes(usageAttributes(event.call));
        if (event.model) {
          model.span.setAttribute('gen_ai.response.model', event.model);
          if (!model.named) model.span.updateName(`chat ${event.model}`);
        }
        endModel();
        return;
      case 'reply':
        endModel();
        return;
      case 'step':
        steps.set(
          event.id,
          tracer.startSpan(
            `execute_tool ${event.step.tool ?? 'exec'}`,
            { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': event.step.tool ?? 'exec', 'gen_ai.tool.call.id': event.id, 'slothtool.step.level': event.verdict.level } },
            under(),
          ),
        );
        return;
      case 'confirm_answer':
        steps.get(event.id)?.setAttribute('slothtool.step.answer', event.answer.action);
        return;
      case 'tool_result': {
        const span = steps.get(event.result.id);
        if (!span) return;
        steps.delete(event.result.id);
        const outcome = outcomeOf(event.result);
        span.setAttributes({
          'slothtool.step.outcome': outcome,
          'slothtool.step.decided_level': event.result.decision.level,
          ...(typeof event.result.durationMs === 'number' ? { 'slothtool.step.duration_ms': event.result.durationMs } : {}),
          ...(typeof event.result.exitCode === 'number' ? { 'process.exit.code': event.result.exitCode } : {}),
        });
        if (event.result.status === 'error') span.setStatus({ code: SpanStatusCode.ERROR, message: String((event.result.error as { code?: unknown } | undefined)?.code ?? 'error') });
        span.end();
        return;
      }
      case 'error':
        endModel(event.code);
        return;
      case 'final':
        endOpen();
        if (!turn) return;
        turn.setAttributes({ 'slothtool.turn.outcome': event.outcome, 'slothtool.turn.steps': event.steps, 'slothtool.turn.model_calls': event.usage.calls, ...usageAttributes(event.usage) });
        if (event.outcome === 'error' || event.outcome === 'model_error') turn.setStatus({ code: SpanStatusCode.ERROR, message: event.error?.code ?? event.outcome });
        turn.end();
        turn = undefined;
        return;
      default:
        return;
    }
  };
  const off = source.on(on);
  return () => {
    off();
    endOpen();
    turn?.end();
    turn = undefined;
  };
}
