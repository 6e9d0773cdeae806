// Whether one delivery failure is hard or soft (docs/bounces.md "What counts as hard"). Hard means the mailbox
// or its whole domain does not exist; every other failure is soft. Status codes speak first, the diagnostic
// text second, and doubt goes to soft: a soft bounce taken for hard would suppress an address that works.

export type FailureKind = 'hard' | 'soft';

/** The SMTP command a refusal answered, when the report says it: the connection, HELO/EHLO, MAIL FROM, RCPT TO or DATA. */
export type SmtpCommand = 'connect' | 'helo' | 'mail' | 'rcpt' | 'data';

export interface FailureEvidence {
  /** Enhanced status codes given for this recipient, the DSN's own first ("5.0.0", "5.1.1"). */
  statuses: readonly string[];
  /** SMTP reply codes found in the diagnostic (550, 452). */
  replies: readonly number[];
  /** The diagnostic text: what the receiving system said, addresses and links taken out. */
  text: string;
  /** The report only warns of a delay (Action: delayed, "will retry"). */
  delayed: boolean;
  /** The command the refusal answered, when known: a refusal at DATA came after the server had accepted the recipient. */
  command?: SmtpCommand;
}

/** Codes that say by themselves that the address does not exist (RFC 3463; 5.1.10 is a null MX / no such recipient). */
const HARD_STATUSES = new Set(['5.1.1', '5.1.2', '5.1.3', '5.1.6', '5.1.10']);
/**
 * Codes too general to decide alone: the text decides. 5.2.1 ("mailbox disabled") and 5.4.1 are widely used for
 * unknown users, so their words say which; "disabled" or "inactive" beside them stays soft. The other 5.2.x codes
 * speak of a mailbox that exists (full, over its limit, some other state): a "user unknown" beside them is a
 * disguised refusal.
 */
const GENERAL_STATUSES = /^5\.(?:0\.\d+|1\.0|2\.1|4\.0|4\.1|4\.4|5\.0|9\.\d+)$/;
/** The sender's address is what was refused (RFC 3463 5.1.7, 5.1.8): nothing is known of the recipient. */
const SENDER_STATUSES = new Set(['5.1.7', '5.1.8', '4.1.7', '4.1.8']);

/** The failure happened before any recipient was looked at (the connection, HELO or MAIL FROM was refused). */
const BEFORE_RECIPIENT = /\b(?:after|in reply to) (?:the )?(?:initial connection|connect|greeting|banner|helo|ehlo|mail from)\b|\bafter (?:sending )?mail from\b/i;

/**
 * Words that make a failure soft whatever else is said: a full mailbox, a refusal for spam or policy, an
 * authentication or reputation problem, a limit, a time-out, a disabled account, a refused relay, a problem of
 * the sender's address or of the receiving system.
 */
const SOFT_TEXT = new RegExp(
  [
    // full mailbox, quota
    String.raw`mail ?(?:box|folder) (?:is )?(?:full|over|size)|mailbox_?full|over ?quota|quota (?:exceeded|full|reached)|exceed\w{0,12} (?:the |their |his |her )?(?:storage|quota|mailbox|disk)`,
    String.raw`storage (?:quota|allocation|space|limit)|insufficient (?:system )?storage|disk (?:quota|is full|full)|(?:mailbox|account|inbox) (?:is |has )?(?:full|exceeded)`,
    String.raw`too many messages (?:in|for)|out of (?:disk|storage) space`,
    // spam, content, reputation, policy
    String.raw`\bspam|\bjunk\b|\bbulk (?:mail|e-?mail)|\bUBE\b|black ?list|block ?list|\bblocked\b|\bbanned\b|\b(?:rbl|dnsbl|spamhaus|spamcop|sorbs|barracuda central)\b`,
    String.raw`(?<!not )\blisted (?:in|on|at|by)\b|reputation|rejected for policy|policy (?:violation|reasons?|rejection|restrictions?)|content (?:rejected|filter)`,
    String.raw`message (?:content )?(?:rejected|refused) (?:due|because|as)|refused due to|recipient'?s? preferences|\bvirus|malware|phish|prohibited|not (?:authori[sz]ed|permitted) to send|denied by policy|\bfiltered\b`,
    // authentication, DNS of the sender
    String.raw`\bdmarc\b|\bspf\b|\bdkim\b|authenticat|reverse dns|\bptr\b|\brdns\b|\bhelo\b|\bstarttls\b|\btls\b|encryption`,
    // sender side
    String.raw`sender (?:address )?(?:rejected|refused|denied|verify|unknown|invalid|domain)|\bsender(?: address| e-?mail| domain)?:? \S{1,80} (?:does(?: not|n'?t) exist|(?:was |is )?not found|unknown)\b|(?:invalid|unknown|unroutable|rejected) sender|valid from|from address|envelope from`,
    // relaying
    String.raw`relay(?:ing)? (?:access )?(?:denied|not (?:permitted|allowed)|prohibited|refused)|not (?:permitted|allowed|configured) to relay|unable to relay|relay not permitted|no relaying`,
    // limits, time-outs, delays
    String.raw`too many|rate ?limit|throttl|try (?:again )?later|temporar|deferred|timed? ?out|time-?out|expired|retry timeout|queue (?:time|lifetime)|too long`,
    String.raw`\bquota\b|daily (?:relay |sending )?(?:quota|limit)|(?:message|mail) (?:is )?too (?:large|big)|size (?:limit|exceed)|exceeds? (?:the )?(?:maximum|max|size|limit)|message length`,
    // the account exists but takes no mail
    String.raw`suspend|disabled|inactive (?:account|user)|temporarily inactive|account (?:is |has been )?inactive|\blocked\b|deactivat|frozen|on hold|not accepting (?:mail|messages)|account (?:has been |is )?(?:closed|expired|blocked)`,
    // the receiving system
    String.raw`\bloop|hop count|protocol violation|syntax error|system error|internal error|configuration error|server error|resources|connection (?:refused|reset|closed|lost)|network is unreachable|no route to host|could not connect|can'?t connect|unable to connect`,
  ].join('|'),
  'i',
);

/** The mailbox does not exist. */
const UNKNOWN_MAILBOX = new RegExp(
  [
    String.raw`unknown (?:virtual )?(?:user|recipient|address|addressee|mailbox|local[- ]?part|e-?mail(?: address)?|account|alias|name)|not a known user`,
    String.raw`(?:user|recipient|addressee|mailbox|address|account|alias|username)(?: name)? (?:is |was )?(?:unknown|not (?:found|known|present|listed))`,
    String.raw`no such (?:user|recipient|mailbox|account|address|person|local user|alias|e-?mail)`,
    String.raw`(?:user|mailbox|account|address|recipient|alias|e-?mail account|email address)(?: that you tried to reach)? does(?: not|n'?t) exist`,
    String.raw`(?:user|mailbox|account|address|recipient) (?:is )?(?:non-?existent|not exist)|user not exist|non-?existent (?:user|recipient|mailbox|address|account)`,
    // the address itself named in between ("user <address> was not found", "mailbox <address> does not exist")
    String.raw`(?:user|recipient|mailbox|account|rcpt) <?<address>>?:? (?:was |is )?(?:not found|unknown|does(?: not|n'?t) exist)`,
    String.raw`invalid (?:recipient|mailbox|user|e-?mail address|account|address)|not a valid (?:user|mailbox|recipient|address)|unknown or illegal alias`,
    String.raw`no (?:mailbox|account) (?:here |by that name|with that name|found|available)|no mail ?box available|undeliverable address|address rejected|recipient ?not ?found`,
    String.raw`not an? (?:active|local) (?:address|user|recipient)|recipient (?:is )?not local|not present in (?:the )?directory|can'?t accept user|destination address(?:es)? (?:were|was|is) unknown`,
    String.raw`(?:recipient|user)(?: name)? (?:is )?not recognized|no one at this address|address no longer accepts mail|(?:address|account|mailbox|user) (?:is )?(?:wrong or )?no longer (?:valid|exists?|in use)|e-?mail name is not found|user missing home directory`,
    String.raw`\bbad (?:recipient|destination mailbox|mailbox|address)\b|badrcptto|badrecipientto|validrcptto|in name directory|not our customer`,
    String.raw`(?:address|recipient) (?:couldn'?t|could not) be found|address (?:wasn'?t|was not) found|not listed in (?:the )?(?:public )?(?:name|domino directory|address book)`,
    String.raw`doesn'?t have an? [\w.-]+ account|e-?mail (?:address|account) (?:was )?not found|mailbox not (?:found|present)`,
    String.raw`(?:address|mailbox|recipient|user) (?:is )?invalid\b`,
    // the name in between, quoted or bare ("user 'neko' does not exist", "mailbox neko was not found"), or the address
    // alone before the words ("<address> does not exist"), unless it is the sender's
    String.raw`(?<!sender )(?:user|mailbox|account|recipient) (?:"[^"]{1,64}"|'[^']{1,64}'|\([^()]{1,64}\)|[^\s"'()]{1,64}) (?:was |is )?(?:not found|unknown|does(?: not|n'?t) exist)`,
    String.raw`(?<!sender\W{1,3})<address>>?:? (?:does(?: not|n'?t) exist|(?:was |is )?not found)`,
    // Exchange Online's own notice: "reader wasn't found at example.org"
    String.raw`(?<!\S)(?!sender\b)\S{1,64} (?:wasn'?t|was not) found at\b`,
    // the same in German, French, Spanish and Italian, naming what does not exist, with at most three words between
    // (a notice's "the group may not exist, or you may not post to it" in those languages is no unknown mailbox)
    String.raw`benutzer unbekannt|unbekannter (?:benutzer|empf)|(?:adresse|postfach|benutzer|empf[äa]nger|konto) (?:\S+ ){0,3}(?:existiert nicht|nicht (?:vorhanden|gefunden))|empf[äa]nger(?:adresse)? unbekannt`,
    String.raw`utilisateur inconnu|destinataire (?:inconnu|invalide)|(?:adresse|bo[iî]te(?: aux lettres)?|compte|utilisateur|destinataire) (?:\S+ ){0,3}(?:n'existe (?:pas|plus)|introuvable)`,
    String.raw`usuario desconocido|(?:usuario|buz[oó]n|cuenta|direcci[oó]n) (?:\S+ ){0,3}no existe`,
    String.raw`utente sconosciuto|(?:utente|casella|indirizzo|destinatario) (?:\S+ ){0,3}(?:inesistente|non (?:esiste|esistente|trovat[oa]))|nessun utente|no existe (?:dicha|esa|ese|tal) (?:persona|usuario|cuenta|direcci[oó]n|buz[oó]n)|destinatario desconocido`,
    // Portuguese, Dutch, Polish, Russian, Chinese and Japanese
    String.raw`usu[áa]rio desconhecido|utilizador desconhecido|destinat[áa]rio desconhecido|(?:conta|endere[çc]o|usu[áa]rio|caixa postal) (?:\S+ ){0,3}n[ãa]o existe`,
    String.raw`onbekende (?:gebruiker|ontvanger)|(?:adres|gebruiker|mailbox) (?:\S+ ){0,3}bestaat niet|nieznany (?:u[żz]ytkownik|adresat)|(?:adres|u[żz]ytkownik|skrzynka) (?:\S+ ){0,3}nie istnieje`,
    String.raw`(?:пользовател[ья]|адресат[а]?|ящик[а]?|адрес[а]?) (?:\S+ )?(?:не найден|не существует|неизвестен)|нет такого (?:пользователя|адресата|ящика)|неизвестный (?:пользователь|адресат)`,
    String.raw`(?:用户|收件人|邮箱|信箱|帐户|账户|帳號|用戶)(?:地址)?不存在|(?:アドレス|ユーザー?|宛先|アカウント|メールボックス)(?:は|が)?(?:存在しません|見つかりません)|存在しない(?:メール)?(?:アドレス|ユーザー?|宛先)|宛先不明|ディレクトリ(?:のリスト)?に(?:は)?(?:ありません|見つかりません)`,
  ].join('|'),
  'i',
);

/**
 * Words that name the recipient itself as unknown, without the wider "address rejected" (which a policy refusal
 * of the recipient says too): strong enough to outweigh a 5.7.x code that came in reply to RCPT TO.
 */
const RECIPIENT_UNKNOWN =
  /unknown (?:user|recipient|mailbox|addressee)|(?:user|recipient|mailbox) (?:is )?(?:unknown|not found)|no such (?:user|recipient|mailbox)|invalid (?:recipient|mailbox|user)|(?:user|mailbox|recipient) does(?: not|n'?t) exist/i;

/** The recipient's domain does not exist or takes no mail (NXDOMAIN, no MX, null MX). */
const UNKNOWN_DOMAIN =
  /host or domain name not found|\b(?:host|domain) [a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,10} not found|(?:host|domain)(?: name)? (?:not found|unknown|does(?: not|n'?t) exist)|unknown (?:host|(?:mail )?domain)|no such (?:domain|host)\b|nxdomain|unrout(?:e)?able (?:address|domain|mail domain)|invalid domain|domain (?:is )?invalid|null mx|doesn'?t receive e-?mail|does not accept (?:e-?)?mail|no mx (?:record|host|found)|no smtp service|domain is not reachable|all host address lookups failed permanently|mx records point to non-?existent hosts|domain mentioned in (?:the )?e-?mail address is unknown|recipient domain must exist|name or service not known|(?:couldn'?t|could not|unable to) find (?:a |any )?(?:mail exchanger|host named|mx)|no mail exchanger|domain (?:\S+ )?(?:couldn'?t|could not) be found|domain name not found|\bnonexistentdomain\b|bad destination system address|\b[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,10}\.[a-z]{2,63} does(?: not|n'?t) exist/i;

/** The recipient's domain publishes a null MX (RFC 7505): it takes no mail at all. */
const NULL_MX = /null mx|(?:host|domain) does not accept (?:e-?)?mail|doesn'?t receive e-?mail|no smtp service/i;

/** The mailbox has moved or the address changed (RFC 3463 5.1.6). */
const MOVED = /has moved|address (?:has )?changed|user has moved|mailbox has moved|moved to another|\baddress\b.{1,120}?\bhas been replaced by\b/i;

/** A 5.4.1 "Recipient address rejected: Access denied" is how Exchange Online names an address it does not have. */
const DIRECTORY_REJECTED = /recipient address rejected: access denied/i;

/** Whether this failure is hard (the address or its domain does not exist) or soft (everything else). */
export function failureKind(evidence: FailureEvidence): FailureKind {
  const { statuses, replies, text, command } = evidence;
  const permanent = statuses.some((status) => status.startsWith('5')) || replies.some((reply) => reply >= 500);
  const temporaryOnly = !permanent && (statuses.length > 0 || replies.length > 0);
  if (evidence.delayed || temporaryOnly) return 'soft';
  if (command === 'connect' || command === 'helo' || command === 'mail' || BEFORE_RECIPIENT.test(text)) return 'soft';
  // RFC 7505: a null MX says the domain takes no mail at all; some MTAs report that to the sender as 5.7.27.
  if (statuses.includes('5.7.27') && NULL_MX.test(text) && !/\bsender\b/i.test(text)) return 'hard';
  // A refusal of RCPT TO that says in so many words that the recipient does not exist is about the address, whatever
  // code the mail system filed it under (some file every refusal under 5.7.1 or 5.3.0); only a 5.2.x, which speaks of
  // a mailbox that exists, keeps it soft. Without that, a 5.7.x is about the sender or the mail.
  if (
    command === 'rcpt' &&
    RECIPIENT_UNKNOWN.test(text) &&
    !SOFT_TEXT.test(text) &&
    !statuses.some((status) => status.startsWith('5.2.') || SENDER_STATUSES.has(status))
  ) {
    return 'hard';
  }
  if (statuses.some((status) => status.startsWith('5.7.') || SENDER_STATUSES.has(status))) return 'soft';
  if (SOFT_TEXT.test(text)) return 'soft';
  // RFC 7504: reply 521 says the host, 556 the domain, takes no mail at all, as a null MX does.
  if (replies.some((reply) => reply === 521 || reply === 556)) return 'hard';
  // A server that accepted the recipient at RCPT TO and refuses the message at DATA judges the message, not the
  // address: its "unknown user" there is a disguised refusal, unless a status code says 5.1.x.
  if (command === 'data' && !statuses.some((status) => HARD_STATUSES.has(status))) return 'soft';
  const specific = statuses.filter((status) => status.startsWith('5.') && !GENERAL_STATUSES.test(status));
  if (specific.some((status) => HARD_STATUSES.has(status))) return 'hard';
  if (specific.length > 0) return 'soft';
  if (statuses.includes('5.4.1') && DIRECTORY_REJECTED.test(text)) return 'hard';
  // A bare reply code ("550 Unknown user") with no enhanced status and nothing to say it answered RCPT TO is how
  // mail filters refuse a message as often as how a server refuses an address: only the words of a dead domain or a
  // moved mailbox stay hard there.
  if (statuses.length === 0 && replies.length > 0 && command === undefined && !UNKNOWN_DOMAIN.test(text) && !MOVED.test(text)) return 'soft';
  if (UNKNOWN_MAILBOX.test(text) || UNKNOWN_DOMAIN.test(text) || MOVED.test(text)) return 'hard';
  return 'soft';
}

/**
 * How mail systems name the command a refusal answered: Postfix "(in reply to RCPT TO command)", Exim "SMTP error
 * from remote mail server after end of data", GMX "after RCPT command", DragonFly "did not like our RCPT TO",
 * Yahoo "[RCPT_TO]", m-FILTER's "SMTP command" section, qmail "does not like recipient" and "failed on DATA command",
 * Gmail's "(state 14)" (its number for RCPT TO; 15 to 18 are DATA), IMail's "Additional RCPT TO generated following
 * response", InterScan's transcript ("Sent <<< RCPT TO:<a@b>", arrows the other way round). The first that matches
 * counts, DATA first.
 */
const COMMAND_WORDS: ReadonlyArray<[SmtpCommand, RegExp]> = [
  ['data', /\b(?:in reply to|after|following|did not like our(?: final)?) (?:the )?(?:end of )?data\b|\bsmtp:data\b|\[data\]|smtp command:? data\b|\bfailed on data command\b|\bfailed after i sent the message\b|\bdata command generated response\b|\(state 1[5-8]\)|\bsent <<< data\b/i],
  ['rcpt', /\b(?:in reply to|after|following|did not like our) (?:the )?rcpt\b|\bsmtp:rcpt\b|\[rcpt_to\]|smtp command:? rcpt\b|\brcpt to response\b|\bdoes not like recipient\b|\brcpt to generated following response\b|\(state 14\)|\bsent <<< rcpt\b/i],
  ['mail', /\b(?:in reply to|after|did not like our) (?:the )?mail(?: from)?\b|\bbut sender was rejected\b|\bserver response to mail from\b/i],
  ['helo', /\b(?:in reply to|after) (?:the )?(?:helo|ehlo)\b|\bunexpected response to (?:ehlo|helo)\b|\bbut my name was rejected\b/i],
  ['connect', /\b(?:in reply to|after) (?:the )?(?:initial connection|connect|greeting|banner)\b/i],
];

/** The verbs of a session transcript (">>> RCPT TO:<a@b>"), as commands. */
const TRANSCRIPT_VERBS: Record<string, SmtpCommand> = { DATA: 'data', RCPT: 'rcpt', MAIL: 'mail', HELO: 'helo', EHLO: 'helo', LHLO: 'helo' };

/** A line in which Sendmail gives one recipient's verdict ("550 5.1.1 <a@b>... User unknown"). */
const RECIPIENT_VERDICT = /^\s*[45]\d\d[ -][245]\.\d{1,3}\.\d{1,3} <?[^\s<>]+@[^\s<>]+?>?\.\.\./;

/**
 * The command a refusal answered, from the words about it or from a session transcript (">>> DATA" then
 * "<<< 550 ..."), when either says. In a transcript, a refusal read after ">>> DATA" that Sendmail follows with a
 * recipient's verdict answered RCPT TO: the server took the commands together (pipelining) and answered late.
 */
export function refusedAt(text: string): SmtpCommand | undefined {
  const flat = text.replace(/\s+/g, ' ');
  const worded = COMMAND_WORDS.find(([, words]) => words.test(flat));
  if (worded) return worded[0];
  const lines = text.split('\n');
  const reply = lines.findIndex((line) => /^\s*<<<\s*[45]\d\d\b/.test(line));
  if (reply < 0) return undefined;
  let verb: SmtpCommand | undefined;
  for (let index = reply - 1; index >= 0 && verb === undefined; index -= 1) {
    const sent = /^\s*>>>\s*([A-Za-z]{4})\b/.exec(lines[index]!);
    if (sent) verb = TRANSCRIPT_VERBS[sent[1]!.toUpperCase()];
  }
  if (verb !== 'data') return verb;
  const after = lines.slice(reply + 1);
  const end = after.findIndex((line) => line.trim() === '' || /^\s*(?:>>>|<<<)/.test(line));
  return after.slice(0, end < 0 ? undefined : end).some((line) => RECIPIENT_VERDICT.test(line)) ? 'rcpt' : 'data';
}

/** Whether `text` gives a reason the rules know, soft or hard. */
export function namesReason(text: string): boolean {
  return SOFT_TEXT.test(text) || UNKNOWN_MAILBOX.test(text) || UNKNOWN_DOMAIN.test(text) || MOVED.test(text);
}

/** The enhanced status codes in a text, each once, in order ("5.1.1"); dotted quads of IP addresses are not. */
export function statusCodesIn(text: string): string[] {
  const codes = [...text.matchAll(/(?<![\d.])([245])\.(\d{1,3})\.(\d{1,3})(?![\d.]*\d)/g)].map((match) => `${match[1]}.${Number(match[2])}.${Number(match[3])}`);
  return [...new Set(codes)];
}

/** The SMTP reply codes in a text (550, 452): a 4xx or 5xx starting a line or a reply, before a space, hyphen or status ("550 - No such user" too). */
export function replyCodesIn(text: string): number[] {
  const codes = [...text.matchAll(/(?:^|[\s:;(\[>#"'])([45][0-5]\d)(?=[ -](?:[245]\.\d|[#<A-Za-z]|\d{3}\b|-\s)|$)/gm)].map((match) => Number(match[1]));
  return [...new Set(codes)];
}
