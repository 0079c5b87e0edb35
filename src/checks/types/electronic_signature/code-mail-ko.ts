import type { CodeMailWriter } from './code-mail.ts';

/** The signing code's mail in Korean (formal polite style). */
export const ko: CodeMailWriter = (v) => ({
  subject: '서명 인증 코드',
  text: [
    `${v.name} 님, 안녕하세요.`,
    '',
    `“${v.document}” 문서에 서명하기 위한 인증 코드는 ${v.code}입니다.`,
    '',
    `이 코드는 ${v.minutes}분 동안 유효하며, 최대 ${v.attempts}회까지 입력할 수 있습니다. 요청하신 적이 없다면 이 메일을 무시해 주세요. 이 코드 없이는 아무것도 서명되지 않습니다.`,
  ].join('\n'),
});
