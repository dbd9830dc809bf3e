import type { Email } from './mailer';

/** What the two mails with a link to sign in by say around the link (the link lasts a while). */
const SIGN_IN_LINK_WORDS = {
  welcome: {
    subject: 'Welcome to Leadex: set your password',
    news: 'An account has been created for you on the Leadex lead exchange.',
    action: 'Set your password',
    ifUnexpected: 'If you did not expect this email, you can ignore it.',
  },
  verification: {
    subject: 'Welcome to Leadex: verify your email',
    news: 'Thank you for signing up with the Leadex lead exchange.',
    action: 'Verify your email address',
    ifUnexpected: 'If you did not sign up, you can ignore this email.',
  },
};

/** Greeting, news, the link (linked on its action in HTML, on a line of its own in text), what to do if unexpected. */
function signInLinkEmail(
  kind: keyof typeof SIGN_IN_LINK_WORDS,
  to: string,
  name: string,
  link: string,
  lasts: string,
): Email {
  const { subject, news, action, ifUnexpected } = SIGN_IN_LINK_WORDS[kind];
  const terms = `to sign in (the link works for ${lasts})`;
  return {
    to,
    subject,
    text: [`Hello ${name},`, '', news, `${action} ${terms}:`, '', link, '', ifUnexpected].join('\n'),
    html: `<p>Hello ${escapeHtml(name)},</p><p>${news}</p><p><a href="${escapeHtml(link)}">${action}</a> ${terms}.</p><p>${ifUnexpected}</p>`,
  };
}

/** The welcome email: a set-password link for a user an admin invited. */
export function welcomeEmail(to: string, name: string, link: string, days: number): Email {
  return signInLinkEmail('welcome', to, name, link, `${days} days`);
}

export function passwordResetEmail(to: string, name: string, link: string): Email {
  return {
    to,
    subject: 'Reset your Leadex password',
    text: [
      `Hello ${name},`,
      '',
      'Follow this link within an hour to choose a new password:',
      '',
      link,
      '',
      'If you did not ask for this, you can ignore this email.',
    ].join('\n'),
    html: `<p>Hello ${escapeHtml(name)},</p><p><a href="${escapeHtml(link)}">Choose a new password</a> (the link works for an hour).</p><p>If you did not ask for this, you can ignore this email.</p>`,
  };
}

/** The welcome email of a self-signed-up source: the link that verifies its address (portals spec §2). */
export function verificationEmail(to: string, name: string, link: string, hours: number): Email {
  return signInLinkEmail('verification', to, name, link, `${hours} hours`);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
