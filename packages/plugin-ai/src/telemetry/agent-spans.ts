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

/** The spans of one agent, made as its events come. */
class AgentSpans {
  private turn?: Span;
  private model?: ModelCall;
  private readonly steps = new Map<string, Span>();

  constructor(private readonly tracer: Tracer) {}

  on(event: AgentEvent): void {
    switch (event.type) {
      case 'turn_start':
        return this.startTurn(event.sessionId);
      case 'request':
        return this.startCall(event);
      case 'wait':
        return this.name(event.model);
      case 'usage':
        return this.usage(event);
      case 'reply':
        return this.endModel();
      case 'step':
        return this.startStep(event);
      case 'confirm_answer':
        return void this.steps.get(event.id)?.setAttribute('slothtool.step.answer', event.answer.action);
      case 'tool_result':
        return this.endStep(event.result);
      case 'error':
        return this.endModel(event.code);
      case 'final':
        return this.endTurn(event);
      default:
        return;
    }
  }

  /** Stop: what is open ends. */
  end(): void {
    this.endOpen();
    this.turn?.end();
    this.turn = undefined;
  }

  private under() {
    return this.turn ? trace.setSpan(context.active(), this.turn) : context.active();
  }

  private startTurn(sessionId: string): void {
    this.end();
    this.turn = this.tracer.startSpan('invoke_agent ai', {
      attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'ai', 'gen_ai.conversation.id': sessionId },
    });
  }

  private startCall(event: Extract<AgentEvent, { type: 'request' }>): void {
    this.endModel();
    const attributes = {
      'gen_ai.operation.name': 'chat',
      'slothtool.request.purpose': event.purpose,
      'slothtool.request.messages': event.messages,
      'slothtool.request.minimal': event.minimal,
    };
    this.model = { named: false, span: this.tracer.startSpan('chat', { attributes }, this.under()) };
  }

  /** The model a call waits for names its span (`chat qwen2.5:7b`). */
  private name(model: string | undefined): void {
    if (!this.model || this.model.named || !model) return;
    this.model.named = true;
    this.model.span.updateName(`chat ${model}`);
    this.model.span.setAttribute('gen_ai.request.model', model);
  }

  private usage(event: Extract<AgentEvent, { type: 'usage' }>): void {
    if (!this.model) return;
    this.model.span.setAttributes(usageAttributes(event.call));
    if (event.model) {
      this.model.span.setAttribute('gen_ai.response.model', event.model);
      if (!this.model.named) this.model.span.updateName(`chat ${event.model}`);
    }
    this.endModel();
  }

  private endModel(error?: string): void {
    if (!this.model) return;
    if (error) this.model.span.setStatus({ code: SpanStatusCode.ERROR, message: error });
    this.model.span.end();
    this.model = undefined;
  }

  /** The tool and its level: never what the step was asked to do. */
  private startStep(event: Extract<AgentEvent, { type: 'step' }>): void {
    const tool = event.step.tool ?? 'exec';
    const attributes = {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': tool,
      'gen_ai.tool.call.id': event.id,
      'slothtool.step.level': event.verdict.level,
    };
    this.steps.set(event.id, this.tracer.startSpan(`execute_tool ${tool}`, { attributes }, this.under()));
  }

  /** How it ended and how long it ran: never its output. */
  private endStep(result: ToolResult): void {
    const span = this.steps.get(result.id);
    if (!span) return;
    this.steps.delete(result.id);
    span.setAttributes({
      'slothtool.step.outcome': outcomeOf(result),
      'slothtool.step.decided_level': result.decision.level,
      ...(typeof result.durationMs === 'number' ? { 'slothtool.step.duration_ms': result.durationMs } : {}),
      ...(typeof result.exitCode === 'number' ? { 'process.exit.code': result.exitCode } : {}),
    });
    if (result.status === 'error')
      span.setStatus({ code: SpanStatusCode.ERROR, message: String((result.error as { code?: unknown } | undefined)?.code ?? 'error') });
    span.end();
  }

  private endTurn(event: Extract<AgentEvent, { type: 'final' }>): void {
    this.endOpen();
    if (!this.turn) return;
    this.turn.setAttributes({
      'slothtool.turn.outcome': event.outcome,
      'slothtool.turn.steps': event.steps,
      'slothtool.turn.model_calls': event.usage.calls,
      ...usageAttributes(event.usage),
    });
    if (event.outcome === 'error' || event.outcome === 'model_error')
      this.turn.setStatus({ code: SpanStatusCode.ERROR, message: event.error?.code ?? event.outcome });
    this.turn.end();
    this.turn = undefined;
  }

  private endOpen(): void {
    this.endModel();
    for (const span of this.steps.values()) span.end();
    this.steps.clear();
  }
}

/** Follow `source` with `tracer`; returns the function that stops following (open spans end). */
export function traceAgent(source: EventSource, tracer: Tracer): () => void {
  const spans = new AgentSpans(tracer);
  const off = source.on((event) => spans.on(event));
  return () => {
    off();
    spans.end();
  };
}
