import type Anthropic from '@anthropic-ai/sdk';
import type { ModelClient } from './model-client';
import type { ImageMime } from '../../common/image-types';
import type { ApprovalStore } from '../tool-call/approval-policy';
import type { EgressGuard } from '../egress/egress-guard';
import type { FrozenSystem } from './frozen-system';
import type { ToolSearchSetting } from '../tool-offer/tool-search-mode';
import type { AskApproval, ToolHost } from './types';

export type Effort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

export interface AgentOptions {
  client: ModelClient;
  host: ToolHost;
  model: string;
  maxTokens?: number;
  maxIterations?: number;
  toolTimeoutMs?: number;
  workspaceName: string;
  approvals: ApprovalStore;
  askApproval: AskApproval;
  /** Told how to fix a rejected key, e.g. "Run 'MCP Agent: Set API Key'". */
  keyHint?: string;
  /** Where the person changes the limits, named in what the agent says when one is reached. */
  settingNames?: { maxTokens: string; maxIterations: string };
  /** The workspace folder: file writes and edits are then shown as the change they make, and refused if the file changes after review. */
  workspaceDir?: string;
  /** Called before the first call of a turn that may change something (e.g. to snapshot the workspace). */
  beforeChange?: () => Promise<void>;
  /** What may leave the machine (egress-guard.ts); unset: a guard that knows no host the person named, keeping "always" answers in `approvals`. */
  egress?: EgressGuard;
  /** Conversation so far (restored from disk): copied and repaired (see repairHistory). */
  history?: Anthropic.MessageParam[];
  /** The conversation itself, already repaired: the agent adds to this array, so it lives in one place (the chat session's). */
  conversation?: Anthropic.MessageParam[];
  /** Called with every message added to the conversation, so the caller can persist it. */
  onMessage?: (message: Anthropic.MessageParam) => void;
  /** The system prompt the chat started with (restored from disk); made at the first turn when unset. */
  system?: FrozenSystem;
  /** Called when the system prompt is made or its told tool list changes, so the caller can keep it. */
  onSystem?: (system: FrozenSystem) => void;
  /** How hard the model thinks (`output_config.effort`), for a model that supports that level; unset: the model's default. */
  effort?: Effort;
  /** Mark requests for prompt caching (default true). */
  promptCaching?: boolean;
  /** The model's input window in tokens; the conversation is compacted before a request would outgrow it. Unset: never compacted. */
  contextWindow?: number;
  /** Called with the whole conversation after it was compacted, so the caller can replace what it keeps. */
  onCompact?: (messages: readonly Anthropic.MessageParam[]) => void;
  /** How tools past the definition budget are found (tool-search-mode.ts); default `auto`. */
  toolSearch?: ToolSearchSetting;
}

/** A new message, or `retry`: ask again for the conversation as it stands (after a failed request). */
export type TurnInput =
  | {
      text: string;
      /** Extra context blocks (attached files), sent before the text. */
      context?: string[];
      /** Images the person pasted, sent before the text. */
      images?: Array<{ mimeType: ImageMime; data: string }>;
    }
  /** Several messages at once (an MCP prompt's, roles kept): alternating, the first and the last the person's. */
  | { messages: Anthropic.MessageParam[] }
  | { retry: true };
