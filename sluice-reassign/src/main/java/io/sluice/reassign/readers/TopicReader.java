package io.sluice.reassign.readers;

import java.util.List;

/**
 * A consumer group that reads a topic: its state, its lag on the topic (records between its committed offsets and
 * the ends), and its members' client IDs and hosts, so the owners can be told before the topic moves.
 *
 * <p>Immutable.
 */
public record TopicReader(String topic, String group, String state, long lag, List<Member> members) {

    public TopicReader {
        members = List.copyOf(members);
    }

    /** One member of the group: the client ID its application chose and the host it connects from. */
    public record Member(String clientId, String host) {
    }
}
