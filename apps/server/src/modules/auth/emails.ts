import type { Email } from '../deliveries/outbox/mailer';

/** The welcome email: a set-password link for a user an admin invited. */
export function welcomeEmail(to: string, name: string, link: string, days: number): Email {
  return {
    to,
    subject: 'Welcome to Leadex: set your password',
    text: [
      `Hello ${name},`,
      '',
      'An account has been created for you on the Leadex lead exchange.',
      `Set your password to sign in (the link works for ${days} days):`,
      '',
      link,
      '',
      'If you did not expect this email, you can ignore it.',
    ].join('\n'),
    html: `<p>Hello ${escapeHtml(name)},</p><p>An account has been created for you on the Leadex lead exchange.</p><p><a href="${escapeHtml(link)}">Set your password</a> to sign in (the link works for ${days} days).</p><p>If you did not expect this email, you can ignore it.</p>`,
  };
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
  return {
    to,
    subject: 'Welcome to Leadex: verify your email',
    text: [
      `Hello ${name},`,
      '',
      'Thank you for signing up with the Leadex lead exchange.',
      `Verify your email address to sign in (the link works for ${hours} hours):`,
      '',
      link,
      '',
      'If you did not sign up, you can ignore this email.',
    ].join('\n'),
    html: `<p>Hello ${escapeHtml(name)},</p><p>Thank you for signing up with the Leadex lead exchange.</p><p><a href="${escapeHtml(link)}">Verify your email address</a> to sign in (the link works for ${hours} hours).</p><p>If you did not sign up, you can ignore this email.</p>`,
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
