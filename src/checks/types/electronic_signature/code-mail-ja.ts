import type { CodeMailWriter } from './code-mail.ts';

/** The signing code's mail in Japanese (polite form). */
export const ja: CodeMailWriter = (v) => ({
  subject: '署名用の確認コード',
  text: [
    `${v.name} 様`,
    '',
    `「${v.document}」に署名するための確認コードは ${v.code} です。`,
    '',
    `このコードの有効期限は ${v.minutes} 分で、入力できるのは ${v.attempts} 回までです。お心当たりのない場合は、このメールを破棄してください。このコードがなければ署名は行われません。`,
  ].join('\n'),
});
