import { Type } from 'typebox';
import { DateTime, Nullable } from '../http/common-schemas.ts';

export const RISK_LEVELS = ['not_defined', 'low', 'medium', 'high', 'critical', 'prohibited'] as const;
export const RiskLevel = Type.Enum(RISK_LEVELS);

export const Risk = Type.Object({
  id: Type.String(),
  mode: Type.Enum(['automatic', 'manual']),
  level: RiskLevel,
  comment: Nullable(Type.String()),
  score: Nullable(Type.Number()),
  components: Nullable(Type.Record(Type.String(), Type.Number())),
  flags: Nullable(Type.Record(Type.String(), Type.Boolean())),
  created_at: DateTime,
  updated_at: DateTime,
});

export const RiskCreate = Type.Object({
  level: RiskLevel,
  score: Type.Optional(Type.Integer({ minimum: -2147483648, maximum: 2147483647 })),
  // the reference: numbers (not only integers) in the 32-bit range
  components: Type.Optional(
    Type.Record(Type.String(), Type.Number({ minimum: -2147483648, maximum: 2147483647 })),
  ),
  flags: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
  comment: Type.Optional(Nullable(Type.String())),
});
