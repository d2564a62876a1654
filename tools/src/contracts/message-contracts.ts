import * as contracts from '@social/contracts';
import type { AnswerShape, AnyOperation } from '@social/contracts';

/** One operation on the bus, as other services and the gateway rely on it. */
export interface MessageOperation {
  caller: string;
  params: string[];
  query: string | null;
  body: string | null;
  answer: string;
  idempotent: boolean;
}

/** The committed description of the bus (libs/contracts/messages.json): its operations and its other subjects. */
export interface MessageContracts {
  operations: Record<string, MessageOperation>;
  /** Service-to-service subjects that are not operations of the HTTP API (`XxxPatterns`). */
  subjects: string[];
}

const isOperation = (value: unknown): value is AnyOperation =>
  !!value && typeof value === 'object' && typeof (value as AnyOperation).subject === 'string' && 'caller' in value && 'answer' in value;

function answerName(answer: AnyOperation['answer']): string {
  if (typeof answer === 'function') return answer.name;
  const shape = answer as AnswerShape<unknown>;
  return shape.of ? `${shape.shape}<${shape.of.name}>` : shape.shape;
}

/** What libs/contracts declares today: every `XxxOperations` entry by subject, and every `XxxPatterns` subject. */
export function describeMessageContracts(exported: Record<string, unknown> = contracts as Record<string, unknown>): MessageContracts {
  const operations: Record<string, MessageOperation> = {};
  const subjects = new Set<string>();
  for (const [name, group] of Object.entries(exported)) {
    if (!group || typeof group !== 'object') continue;
    if (name.endsWith('Operations')) {
      for (const operation of Object.values(group).filter(isOperation)) {
        operations[operation.subject] = {
          caller: operation.caller,
          params: Object.keys(operation.params),
          query: operation.query?.name ?? null,
          body: operation.body?.name ?? null,
          answer: answerName(operation.answer),
          idempotent: operation.idempotent,
        };
      }
    } else if (name.endsWith('Patterns')) {
      for (const subject of Object.values(group)) if (typeof subject === 'string') subjects.add(subject);
    }
  }
  const sorted = Object.fromEntries(Object.entries(operations).sort(([a], [b]) => a.localeCompare(b)));
  return { operations: sorted, subjects: [...subjects].sort() };
}
