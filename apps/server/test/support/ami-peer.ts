import net from 'node:net';
import { AmiParser, field } from '../../src/pbx/ami/framing.ts';

export interface AmiPeerOptions {
  secret?: string;
  /** PJSIPShowEndpoints rows: endpoint name and device state. */
  endpoints?: { name: string; state?: string }[];
  /** PJSIPShowContacts rows: a registered contact of an AOR. */
  contacts?: { aor: string; via?: string; userAgent?: string }[];
  /** Outbound registrations of trunks (PJSIPShowRegistrationsOutbound), with their Status. */
  registrations?: { name: string; status: string }[];
  /** CLI output lines of a Command action; the default answers like `database show DND`. */
  command?: (command: string) => string[];
  /**
   * An AstDB ('FAMILY/key' → value) the peer keeps as Asterisk does: DBPut and DBDel change it, `database
   * show` lists it, and `devstate change` announces a DeviceStateChange. Without one, the defaults above.
   */
  astdb?: Map<string, string>;
  /**
   * Conference rooms by number and who is in each, kept as app_confbridge does: ConfbridgeListRooms and
   * ConfbridgeList read it, ConfbridgeMute/Unmute/Kick change it and announce ConfbridgeMute/Unmute/Leave.
   */
  conferences?: Map<string, PeerParticipant[]>;
}

export interface PeerParticipant {
  channel: string;
  number: string;
  name: string;
  admin?: boolean;
  muted?: boolean;
}

export interface AmiPeer {
  actions: Record<string, string | string[]>[];
  /** CLI commands received, in order. */
  commands: () => string[];
  logins: () => number;
  dropAll: () => void;
  /** While on, connections are closed as soon as they open (Asterisk down or refusing). */
  refuse: (on: boolean) => void;
  /** While on, every action, Login included, is answered 'Asterisk is shutting down' (a restart waiting for calls). */
  shuttingDown: (on: boolean) => void;
  /** The secret Login accepts from now on (credentials fixed in manager.conf). */
  setSecret: (secret: string) => void;
  /** Sends an unsolicited event to every connected client, as Asterisk does when something happens. */
  event: (fields: Record<string, string>) => void;
  listen: () => Promise<number>;
  close: () => Promise<void>;
}

/**
 * The far side of the protocol: a loopback server that speaks AMI like Asterisk does (banner, login,
 * event lists split across writes, command output), so the client and everything above it are tested
 * against the real wire format.
 */
export function amiPeer(options: AmiPeerOptions = {}): AmiPeer {
  const sockets = new Set<net.Socket>();
  const broadcast = (fields: Record<string, string>) => {
    const text = `${Object.entries(fields)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('')}\r\n`;
    for (const s of sockets) s.write(text);
  };
  const astdbShow = (command: string): string[] | undefined => {
    const db = options.astdb;
    const family = /^database show (\S+)$/.exec(command)?.[1];
    if (!db) return undefined;
    if (family) {
      const rows = [...db].filter(([k]) => k.startsWith(`${family}/`)).map(([k, v]) => `/${k} : ${v}`);
      return [...rows, `${rows.length} results found.`];
    }
    const devstate = /^devstate change (\S+) (\S+)$/.exec(command);
    if (devstate) {
      broadcast({
        Event: 'DeviceStateChange',
        Privilege: 'call,all',
        Device: devstate[1] ?? '',
        State: devstate[2] ?? '',
      });
      return [`Changing ${devstate[1]} to ${devstate[2]}`];
    }
    return undefined;
  };
  const actions: Record<string, string | string[]>[] = [];
  let logins = 0;
  const list = (id: string, name: string, rows: string[]) =>
    `Response: Success\r\nEventList: start\r\nMessage: list follows\r\nActionID: ${id}\r\n\r\n` +
    rows.map((r) => `Event: ${name}\r\nActionID: ${id}\r\n${r}\r\n`).join('') +
    `Event: ${name}Complete\r\nActionID: ${id}\r\nEventList: Complete\r\nListItems: ${rows.length}\r\n\r\n`;
  let refusing = false;
  let shutting = false;
  let secret = options.secret ?? 'right-secret';
  const server = net.createServer((socket) => {
    if (refusing) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.write('Asterisk Call Manager/5.0.0\r\n');
    // Messages go out whole and in order, even the one split across writes on purpose.
    let queue = Promise.resolve();
    const send = (text: string, split = false) => {
      queue = queue.then(
        () =>
          new Promise<void>((done) => {
            if (!split) {
              socket.write(text);
              return done();
            }
            const half = Math.floor(text.length / 2);
            socket.write(text.slice(0, half));
            setTimeout(() => {
              socket.write(text.slice(half));
              done();
            }, 5);
          }),
      );
    };
    const parser = new AmiParser();
    parser.banner = '';
    socket.on('data', (chunk) => {
      for (const m of parser.feed(chunk.toString())) {
        actions.push(m);
        const id = field(m, 'actionid') ?? '';
        const reply = (lines: string) => send(`${lines}ActionID: ${id}\r\n\r\n`);
        const action = field(m, 'action')?.toLowerCase();
        if (shutting) {
          reply('Response: Error\r\nMessage: Asterisk is shutting down\r\n');
          continue;
        }
        if (action === 'login') {
          if (field(m, 'secret') !== secret) {
            reply('Response: Error\r\nMessage: Authentication failed\r\n');
            continue;
          }
          logins++;
          reply('Response: Success\r\nMessage: Authentication accepted\r\n');
          send('Event: FullyBooted\r\nPrivilege: system,all\r\nStatus: Fully Booted\r\n\r\n');
        } else if (action === 'pjsipshowendpoints') {
          const rows = (options.endpoints ?? [{ name: '201' }, { name: '202' }]).map(
            (e) => `ObjectName: ${e.name}\r\nDeviceState: ${e.state ?? 'Not in use'}\r\n`,
          );
          // Split across writes on purpose: the client must buffer partial messages.
          send(list(id, 'EndpointList', rows), true);
        } else if (action === 'pjsipshowcontacts') {
          // As Asterisk does: an error, not an empty list, when nothing is registered.
          if ((options.contacts ?? []).length === 0) {
            reply('Response: Error\r\nMessage: No Contacts found\r\n');
            continue;
          }
          const rows = (options.contacts ?? []).map(
            (c) =>
              `ObjectName: ${c.aor};@abc\r\nAor: ${c.aor}\r\nUri: sip:${c.aor}@${c.via ?? '192.0.2.10:5060'}\r\n` +
              `ViaAddress: ${c.via ?? '192.0.2.10:5060'}\r\nUserAgent: ${c.userAgent ?? 'Test phone'}\r\nStatus: Reachable\r\n`,
          );
          send(list(id, 'ContactList', rows));
        } else if (action === 'pjsipshowregistrationsoutbound') {
          // Each registration is followed by an AuthDetail named like the trunk, without a Status.
          const events = (options.registrations ?? []).flatMap((r) => [
            `Event: OutboundRegistrationDetail\r\nActionID: ${id}\r\nObjectType: registration\r\nObjectName: ${r.name}\r\nEndpoint: ${r.name}\r\nStatus: ${r.status}\r\n\r\n`,
            `Event: AuthDetail\r\nActionID: ${id}\r\nObjectType: auth\r\nObjectName: ${r.name}\r\nUsername: ${r.name}\r\n\r\n`,
          ]);
          send(
            `Response: Success\r\nEventList: start\r\nMessage: Following are Events for each Outbound registration\r\nActionID: ${id}\r\n\r\n` +
              events.join('') +
              `Event: OutboundRegistrationDetailComplete\r\nActionID: ${id}\r\nEventList: Complete\r\nListItems: ${events.length / 2}\r\n\r\n`,
          );
        } else if (action === 'command') {
          const command = field(m, 'command') ?? '';
          const output = options.command?.(command) ?? astdbShow(command) ?? ['/DND/201 : YES', '1 results found.'];
          reply(
            `Response: Success\r\nMessage: Command output follows\r\n${output.map((l) => `Output: ${l}\r\n`).join('')}`,
          );
        } else if (action === 'dbput' && options.astdb) {
          options.astdb.set(`${field(m, 'family')}/${field(m, 'key')}`, field(m, 'val') ?? '');
          reply('Response: Success\r\nMessage: Updated database successfully\r\n');
        } else if (action === 'dbdel' && options.astdb) {
          const key = `${field(m, 'family')}/${field(m, 'key')}`;
          if (options.astdb.delete(key)) reply('Response: Success\r\nMessage: Key deleted successfully\r\n');
          else reply('Response: Error\r\nMessage: Database entry not found\r\n');
        } else if (action?.startsWith('confbridge') && options.conferences) {
          const rooms = options.conferences;
          const room = field(m, 'conference') ?? '';
          const people = rooms.get(room) ?? [];
          const busy = [...rooms].filter(([, p]) => p.length > 0);
          if (action === 'confbridgelistrooms') {
            if (busy.length === 0) reply('Response: Error\r\nMessage: No active conferences.\r\n');
            else {
              const rows = busy.map(
                ([name, p]) =>
                  `Conference: ${name}\r\nParties: ${p.length}\r\nMarked: 0\r\nLocked: No\r\nMuted: No\r\n`,
              );
              send(list(id, 'ConfbridgeListRooms', rows));
            }
            continue;
          }
          if (people.length === 0) {
            reply('Response: Error\r\nMessage: No Conference by that name found.\r\n');
            continue;
          }
          if (action === 'confbridgelist') {
            const rows = people.map(
              (p) =>
                `Conference: ${room}\r\nCallerIDNum: ${p.number}\r\nCallerIDName: ${p.name}\r\nChannel: ${p.channel}\r\n` +
                `Admin: ${p.admin ? 'Yes' : 'No'}\r\nMuted: ${p.muted ? 'Yes' : 'No'}\r\nAnsweredTime: 42\r\n`,
            );
            send(list(id, 'ConfbridgeList', rows));
            continue;
          }
          const who = people.find((p) => p.channel === field(m, 'channel'));
          if (!who) {
            reply('Response: Error\r\nMessage: No Channel by that name found in Conference.\r\n');
            continue;
          }
          const announce = (event: string) =>
            broadcast({ Event: event, Privilege: 'call,all', Conference: room, Channel: who.channel });
          if (action === 'confbridgekick') {
            rooms.set(
              room,
              people.filter((p) => p !== who),
            );
            reply('Response: Success\r\nMessage: User kicked\r\n');
            announce('ConfbridgeLeave');
          } else {
            who.muted = action === 'confbridgemute';
            reply('Response: Success\r\nMessage: User muted\r\n');
            announce(who.muted ? 'ConfbridgeMute' : 'ConfbridgeUnmute');
          }
        } else if (action === 'logoff') {
          reply('Response: Goodbye\r\nMessage: Thanks for all the fish.\r\n');
          queue = queue.then(() => {
            socket.end();
          });
        } else {
          reply('Response: Success\r\n');
        }
      }
    });
  });
  return {
    actions,
    commands: () =>
      actions.filter((a) => field(a, 'action')?.toLowerCase() === 'command').map((a) => field(a, 'command') ?? ''),
    logins: () => logins,
    event: broadcast,
    refuse: (on) => {
      refusing = on;
    },
    shuttingDown: (on) => {
      shutting = on;
    },
    setSecret: (value) => {
      secret = value;
    },
    dropAll: () => {
      for (const s of sockets) s.destroy();
    },
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
