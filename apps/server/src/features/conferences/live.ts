import type { ConferenceLiveRoom, ConferenceParticipant } from '@centralino/contract';
import { AppError } from '../../errors.ts';
import { type AmiClient, AmiError } from '../../pbx/ami/client.ts';
import { field } from '../../pbx/ami/framing.ts';
import { pbxNotConnected } from '../../pbx/live-state.ts';

/**
 * Who is in a room now, and muting or kicking one of them, over AMI (app_confbridge's ConfbridgeList,
 * ConfbridgeMute/Unmute, ConfbridgeKick). Runtime state only: nothing of it is in the configuration files.
 */
export class ConferenceLive {
  constructor(private readonly ami: () => AmiClient | undefined) {}

  private client(): AmiClient {
    const ami = this.ami();
    if (ami?.state !== 'connected') throw pbxNotConnected(ami);
    return ami;
  }

  async participants(room: string): Promise<ConferenceParticipant[]> {
    const ami = this.client();
    try {
      const { events } = await ami.action('ConfbridgeList', { Conference: room });
      return events
        .filter((e) => field(e, 'event') === 'ConfbridgeList')
        .map((e) => ({
          channel: field(e, 'channel') ?? '',
          caller_number: field(e, 'calleridnum') ?? '',
          caller_name: field(e, 'calleridname') ?? '',
          admin: field(e, 'admin') === 'Yes',
          muted: field(e, 'muted') === 'Yes',
          seconds: Number(field(e, 'answeredtime') ?? 0) || 0,
        }));
    } catch (error) {
      // An empty room does not exist for ConfBridge: 'No active conferences.' / 'No Conference by that name found.'
      if (error instanceof AmiError && error.response) return [];
      throw error;
    }
  }

  /**
   * The rooms with people in them now and who they are: one ConfbridgeListRooms, then one ConfbridgeList for each
   * room it names (ConfBridge knows a room only while someone is in it). `known` maps a room's number to the room.
   */
  async rooms(known: Map<string, { id: number; name: string }>): Promise<ConferenceLiveRoom[]> {
    const ami = this.client();
    let names: string[];
    try {
      const { events } = await ami.action('ConfbridgeListRooms');
      names = events
        .filter((e) => field(e, 'event') === 'ConfbridgeListRooms')
        .map((e) => field(e, 'conference') ?? '')
        .filter((n) => known.has(n));
    } catch (error) {
      // 'No active conferences.'
      if (error instanceof AmiError && error.response) return [];
      throw error;
    }
    const rooms = await Promise.all(
      names.map(async (extension) => {
        const room = known.get(extension) as { id: number; name: string };
        return { id: room.id, extension, name: room.name, participants: await this.participants(extension) };
      }),
    );
    return rooms.filter((r) => r.participants.length > 0).sort((a, b) => a.extension.localeCompare(b.extension));
  }

  /** Mutes or unmutes, or kicks, the participant on `channel`; 404 when they are not in the room (any more). */
  async act(room: string, channel: string, action: 'mute' | 'unmute' | 'kick'): Promise<void> {
    const ami = this.client();
    const name = action === 'kick' ? 'ConfbridgeKick' : action === 'mute' ? 'ConfbridgeMute' : 'ConfbridgeUnmute';
    try {
      await ami.action(name, { Conference: room, Channel: channel });
    } catch (error) {
      if (error instanceof AmiError && error.response) {
        throw new AppError(404, 'not_found', (lang) =>
          lang === 'it'
            ? `${channel} non è (più) nella conferenza ${room}.`
            : `${channel} is not in conference ${room} (any more).`,
        );
      }
      throw error;
    }
  }
}
