package io.sluice.cli.pipeline;

import io.sluice.cli.config.ConfigException;
import io.sluice.cli.config.ConfigFiles;
import io.sluice.cli.config.Problems;
import io.sluice.cli.config.Settings;
import io.sluice.cli.config.SettingsReader;
import io.sluice.cli.config.Variables;
import io.sluice.mirror.MirrorConfig;
import io.sluice.mirror.copy.TopicNaming;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * A mirror read from a file (keys: {@link MirrorKeys}): the mirror's configuration, its metrics endpoint, and the
 * settings as written, so that later checks can point at a line. Every problem is reported at once, with file, line
 * and column; secret values never appear in messages.
 *
 * <p>Immutable.
 */
public record MirrorFile(String file, MirrorConfig config, MetricsConfig metrics, Settings settings) {

    /**
     * Whether {@code file} is a mirror file rather than a pipeline: it has a top-level {@code target} or {@code mirror}
     * section (a mirror file without its target was taken for a pipeline, and {@code validate} told the user to run it
     * with {@code sluice mirror}, which then said the target was missing). A merge file has a target too: callers ask
     * {@link MergeFile#isMerge} first.
     */
    public static boolean isMirror(Path file) {
        return ConfigFiles.hasTopLevelSection(file, "target") || ConfigFiles.hasTopLevelSection(file, "mirror");
    }

    public static MirrorFile load(Path file, Variables variables) throws ConfigException {
        String text = ConfigFiles.read(file);
        return parse(file.toString(), text, file.toAbsolutePath().getParent(), variables);
    }

    public static MirrorFile parse(String name, String text, Path base, Variables variables) throws ConfigException {
        FileKind.MIRROR.expect(name, text);
        // unknown keys are said with what the checks below find, in one pass
        Problems unknownKeys = new Problems();
        Settings s = new SettingsReader(MirrorKeys.CATALOG, variables).read(name, text, unknownKeys);
        Problems problems = new Problems();
        Map<String, Object> source = MirrorKeys.SOURCE.clientProperties(s, base, problems);
        Map<String, Object> target = MirrorKeys.TARGET.clientProperties(s, base, problems);
        MirrorConfig.Builder b = MirrorConfig.builder()
                .name(s.get(MirrorKeys.NAME))
                .sourceProperties(source)
                .targetProperties(target)
                .delivery(s.get(MirrorKeys.DELIVERY))
                .groupSyncInterval(s.get(MirrorKeys.GROUP_SYNC_INTERVAL))
                .topicSyncInterval(s.get(MirrorKeys.TOPIC_SYNC_INTERVAL))
                .commitInterval(s.get(MirrorKeys.COMMIT_INTERVAL));
        s.find(MirrorKeys.TOPICS).ifPresent(b::topics);
        s.find(MirrorKeys.PATTERN).ifPresent(b::topicPattern);
        s.find(MirrorKeys.GROUPS).ifPresent(b::groups);
        s.find(MirrorKeys.REPLICATION_FACTOR).ifPresent(f -> b.replicationFactor(f.shortValue()));
        try {
            b.naming(TopicNaming.template(s.get(MirrorKeys.TOPIC_NAME)));
        } catch (IllegalArgumentException e) {
            problems.add(s.at(MirrorKeys.TOPIC_NAME), MirrorKeys.TOPIC_NAME.path() + ": " + e.getMessage());
        }
        if (s.find(MirrorKeys.TOPICS).isEmpty() && s.find(MirrorKeys.PATTERN).isEmpty()) {
            problems.add(s.at(MirrorKeys.TOPICS), "source: give the topics to copy (topics: [a, b]) or a pattern "
                    + "(pattern: 'clicks-.*')");
        } else if (s.find(MirrorKeys.TOPICS).isPresent() && s.find(MirrorKeys.PATTERN).isPresent()) {
            problems.add(s.at(MirrorKeys.PATTERN), "source: give either the topics to copy or a pattern, not both");
        }
        MirrorConfig config = null;
        if (!problems.any()) {
            try {
                config = b.build();
            } catch (IllegalArgumentException e) {
                problems.add(s.at(MirrorKeys.NAME), e.getMessage());
            }
        }
        problems.removeIf(s::followsFromUnreadable);
        problems.addAll(unknownKeys);
        problems.throwIfAny();
        return new MirrorFile(name, config, new MetricsConfig(s.get(PipelineKeys.METRICS_PORT),
                s.get(PipelineKeys.METRICS_ADDRESS)), s);
    }

    /** One line: what is copied from where to where. */
    public String describe() {
        return (config.topics().isEmpty() ? "topics matching '" + config.topicPattern().orElseThrow() + "'"
                : "topics " + String.join(", ", config.topics())) + " of "
                + config.sourceProperties().get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) + " to "
                + config.targetProperties().get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) + " with "
                + config.naming() + ", " + (config.delivery().name().toLowerCase(java.util.Locale.ROOT)
                        .replace('_', '-')) + " (mirror " + config.name() + ")";
    }
}
