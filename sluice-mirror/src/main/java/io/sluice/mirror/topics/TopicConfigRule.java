package io.sluice.mirror.topics;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;

/**
 * Which configs of a source topic its target topic gets: those set on the source topic itself (not the brokers'
 * defaults) that describe the data, and none that describe the source cluster's brokers or how they are operated.
 *
 * <p>Copied, when set on the source topic: {@code cleanup.policy}, {@code retention.ms}, {@code retention.bytes},
 * {@code delete.retention.ms}, {@code min.compaction.lag.ms}, {@code max.compaction.lag.ms},
 * {@code min.cleanable.dirty.ratio}, {@code compression.type} and its levels, {@code max.message.bytes} and
 * {@code segment.bytes}, {@code segment.ms}, {@code segment.jitter.ms}, {@code segment.index.bytes}: what a reader of
 * the target may rely on (how long records stay, which keys compaction keeps, how large a record may be). The target's
 * {@code max.message.bytes} is the source's plus {@value #PROVENANCE_ROOM} bytes, since every copy is larger than its
 * source record by the provenance header: a record the source took must fit in the target. That one is the source
 * topic's limit in effect, wherever it comes from (the topic, or the brokers' default): a record of nearly the
 * default's size, which the source took, stopped a mirror whose target topic had the same default (a chaos run).
 *
 * <p>Never copied: {@code message.timestamp.type}, because the mirror keeps each record's timestamp and a target on
 * {@code LogAppendTime} would overwrite it with the copy's time (a source on LogAppendTime hands out its append times,
 * which the copies keep as their CreateTime; target topics the mirror creates are therefore made with CreateTime);
 * {@code message.timestamp.*.max.ms}, which would make the target refuse copies of records older than the window
 * whenever the mirror runs behind; and the source cluster's own durability and operations:
 * {@code min.insync.replicas}, {@code unclean.leader.election.enable}, the replication throttles,
 * {@code message.downconversion.enable}, {@code message.format.version}, tiered storage ({@code remote.storage.enable},
 * {@code local.retention.*}, {@code remote.log.*}), {@code preallocate}, {@code flush.*},
 * {@code file.delete.delay.ms}, {@code index.interval.bytes}. The target's defaults apply to those.
 *
 * <p>A list of what is copied rather than of what is not (MirrorMaker 2 excludes six keys and copies the rest): a key
 * a later Kafka or a vendor adds is not copied until someone decides it describes the data, so a new broker setting
 * never leaks into another cluster, nor makes an older target refuse the topic.
 *
 * <p>Immutable.
 */
public final class TopicConfigRule {

    private static final String MAX_MESSAGE_BYTES = "max.message.bytes";

    private static final Set<String> COPIED = Set.of("cleanup.policy", "retention.ms", "retention.bytes",
            "delete.retention.ms", "min.compaction.lag.ms", "max.compaction.lag.ms", "min.cleanable.dirty.ratio",
            "compression.type", "compression.gzip.level", "compression.lz4.level", "compression.zstd.level",
            MAX_MESSAGE_BYTES, "segment.bytes", "segment.ms", "segment.jitter.ms", "segment.index.bytes");

    /**
     * What the provenance header adds to a record, at most, with room to spare: its 20-byte key, a 22-character cluster
     * ID, ':' and an offset of up to 19 digits, and their lengths.
     */
    static final int PROVENANCE_ROOM = 128;

    private TopicConfigRule() {
    }

    /** Whether the rule copies {@code key} from a source topic to its target topic. */
    public static boolean copies(String key) {
        return COPIED.contains(key);
    }

    /**
     * The entries of {@code config} set on the topic itself whose keys the rule copies, and its record size limit in
     * effect wherever it is set, by key.
     */
    public static Map<String, String> copied(Config config) {
        Map<String, String> copied = new TreeMap<>();
        for (ConfigEntry entry : config.entries()) {
            boolean onTheTopic = entry.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG
                    || entry.name().equals(MAX_MESSAGE_BYTES);
            if (onTheTopic && copies(entry.name()) && entry.value() != null) {
                copied.put(entry.name(), entry.value());
            }
        }
        return copied;
    }

    /** The values the target topic gets for a source topic's {@link #copied} configs. */
    public static Map<String, String> forTarget(Map<String, String> copied) {
        Map<String, String> target = new TreeMap<>(copied);
        target.computeIfPresent(MAX_MESSAGE_BYTES, (k, v) -> {
            try {
                return Long.toString(Math.min(Integer.MAX_VALUE, Long.parseLong(v.trim()) + PROVENANCE_ROOM));
            } catch (NumberFormatException e) {
                return v; // not a number the broker took; the target refuses it in words
            }
        });
        return target;
    }
}
