package io.sluice.mirror.copy;

import java.util.Objects;
import org.apache.kafka.common.TopicPartition;

/**
 * The name a source topic has in the target cluster: the same (the default), or made from a template in which
 * {@code {topic}} stands for the source name (a prefix {@code dc1.} is the template {@code dc1.{topic}}). Partition
 * numbers never change: source partition p is target partition p.
 *
 * <p>Immutable.
 */
public final class TopicNaming {

    private static final String TOPIC = "{topic}";
    private static final TopicNaming IDENTITY = new TopicNaming(TOPIC);

    private final String template;

    private TopicNaming(String template) {
        this.template = template;
    }

    /** Every topic keeps its name. */
    public static TopicNaming identity() {
        return IDENTITY;
    }

    /** Every topic's name begins with {@code prefix} in the target. */
    public static TopicNaming prefix(String prefix) {
        return template(Objects.requireNonNull(prefix, "prefix") + TOPIC);
    }

    /**
     * Names from {@code template}, which must hold {@code {topic}} once (two source topics may never meet in one
     * target topic).
     */
    public static TopicNaming template(String template) {
        Objects.requireNonNull(template, "template");
        int at = template.indexOf(TOPIC);
        if (at < 0 || template.indexOf(TOPIC, at + 1) >= 0) {
            throw new IllegalArgumentException("a topic name template must hold {topic} exactly once, as in "
                    + "'dc1.{topic}': '" + template + "' does not");
        }
        String rest = template.replace(TOPIC, "");
        if (!rest.matches("[a-zA-Z0-9._-]*")) {
            throw new IllegalArgumentException("a topic name may hold only letters, digits, '.', '_' and '-': the "
                    + "template '" + template + "' adds other characters");
        }
        return new TopicNaming(template);
    }

    /** The target topic of {@code sourceTopic}. */
    public String target(String sourceTopic) {
        return template.replace(TOPIC, sourceTopic);
    }

    /** The target partition of source partition {@code source}: the same number, in the target topic. */
    public TopicPartition target(TopicPartition source) {
        return new TopicPartition(target(source.topic()), source.partition());
    }

    /** Whether topics keep their names, the only naming under which two mirrors can face each other. */
    public boolean isIdentity() {
        return template.equals(TOPIC);
    }

    @Override
    public String toString() {
        return isIdentity() ? "the same names" : "names of the form " + template;
    }
}
