/**
 * What the Send API accepts (developers.facebook.com/docs/messenger-platform/send-messages): the
 * encoder shortens text past a length limit (ending it with `…`) and refuses a message with more
 * items than a count limit, since dropping a choice would change what the person can answer.
 * @example if (quickReplies.length > MESSENGER_LIMITS.quickReplies) throw …;
 */
export const MESSENGER_LIMITS = Object.freeze({
  /** Characters of a text message; the host splits longer text (it is `maxTextLength`). */
  text: 2000,
  /** Quick replies on one message, and characters of each title. */
  quickReplies: 13,
  quickReplyTitle: 20,
  /** Buttons of a button template or of one generic template element, and characters of each title. */
  buttons: 3,
  buttonTitle: 20,
  /** Characters of a button template's text. */
  buttonTemplateText: 640,
  /** Elements of a generic template, and characters of each title and subtitle. */
  elements: 10,
  elementTitle: 80,
  elementSubtitle: 80,
});
