package io.sluice.mirror.audit;

import io.sluice.mirror.MirrorConfig;
import io.sluice.mirror.MirrorDelivery;
import io.sluice.mirror.copy.TopicNaming;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What one audit compares: everything is derived from the mirror's own {@link MirrorConfig} (its clusters, topics,
 * naming, and where its progress lives), so that the audit checks what the mirror promised and nothing else.
 *
 * <p>Immutable; built by {@link Builder}.
 */
public final class MirrorAuditConfig {

    private final MirrorConfig mirror;
    private final boolean untilSourceEnd;
    private final Duration timeout;

    private MirrorAuditConfig(Builder b) {
        this.mirror = b.mirror;
        this.untilSourceEnd = b.untilSourceEnd;
        this.timeout = b.timeout;
    }

    /** The mirror audited. */
    MirrorConfig mirror() {
        return mirror;
    }

    /** An audit of {@code mirror}, up to its progress unless told otherwise. */
    public static Builder builder(MirrorConfig mirror) {
        return new Builder(mirror);
    }

    public String mirrorName() {
        return mirror.name();
    }

    public Map<String, Object> sourceProperties() {
        return mirror.sourceProperties();
    }

    public Map<String, Object> targetProperties() {
        return mirror.targetProperties();
    }

    /** The source topics by name; empty when {@link #topicPattern} chooses them. */
    public List<String> topics() {
        return mirror.topics();
    }

    public Optional<Pattern> topicPattern() {
        return mirror.topicPattern();
    }

    public TopicNaming naming() {
        return mirror.naming();
    }

    public MirrorDelivery delivery() {
        return mirror.delivery();
    }

    /** The target group whose offsets say how far the mirror copied, exactly once. */
    public String progressGroup() {
        return mirror.progressGroup();
    }

    /** The source group whose offsets say how far the mirror copied, at least once. */
    public String sourceGroup() {
        return mirror.sourceGroup();
    }

    /**
     * Audit up to the source's end (its last stable offset when the audit starts) instead of the mirror's progress:
     * for a stopped mirror that should have caught up.
     */
    public boolean untilSourceEnd() {
        return untilSourceEnd;
    }

    /** How long a read may make no progress, and how long an admin request may take, before the audit gives up. */
    public Duration timeout() {
        return timeout;
    }

    /** Builds a {@link MirrorAuditConfig}. Threading: not thread-safe; one thread builds. */
    public static final class Builder {
        private final MirrorConfig mirror;
        private boolean untilSourceEnd;
        private Duration timeout = Duration.ofSeconds(30);

        private Builder(MirrorConfig mirror) {
            this.mirror = Objects.requireNonNull(mirror, "mirror");
        }

        public Builder untilSourceEnd(boolean untilSourceEnd) {
            this.untilSourceEnd = untilSourceEnd;
            return this;
        }

        public Builder timeout(Duration timeout) {
            this.timeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        public MirrorAuditConfig build() {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("the audit's timeout must be positive");
            }
            return new MirrorAuditConfig(this);
        }
    }
}
