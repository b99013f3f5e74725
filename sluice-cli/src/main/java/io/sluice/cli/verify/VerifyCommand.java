package io.sluice.cli.verify;

import io.sluice.audit.Audit;
import io.sluice.audit.AuditConfig;
import io.sluice.audit.AuditException;
import io.sluice.audit.AuditReport;
import io.sluice.cli.CliContext;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.RunFailure;
import io.sluice.cli.cluster.GroupFlags;
import io.sluice.cli.cluster.KafkaFlags;
import io.sluice.cli.cluster.SourceTopics;
import io.sluice.cli.cluster.TopicFlags;
import io.sluice.cli.console.AuditTicker;
import io.sluice.cli.pipeline.MergeFile;
import io.sluice.cli.pipeline.MirrorFile;
import io.sluice.cli.pipeline.Pipeline;
import io.sluice.mirror.audit.MirrorAuditReport;
import io.sluice.cli.pipeline.PipelineParts;
import io.sluice.cli.pipeline.Pipelines;
import io.sluice.cli.pipeline.StorageTarget;
import io.sluice.cli.probe.BootstrapProbe;
import io.sluice.cli.probe.ClusterRoles;
import io.sluice.core.FailureOutcome;
import io.sluice.storage.backend.StorageBackend;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice verify}: the audit of an archive against Kafka (sluice-audit, docs/audit.md), from a
 * pipeline file or from flags, flags winning.
 *
 * <p>Threading: the main thread.
 */
@Command(name = "verify", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Audits an archive against Kafka: every offset of the topic that Kafka still has, and that is "
                + "not in the dead-letter topic, must be in exactly one visible file. Prints the report, its verdict "
                + "first (docs/audit.md). Reads Kafka without a consumer group and changes nothing.",
            "Takes the brokers, topics, archive, dead-letter topic and group from a pipeline file, or from the flags, "
                    + "which win. Exit status 0 when every offset is there exactly once, 1 when problems are found or "
                    + "the audit cannot run, 2 for bad usage."})
public final class VerifyCommand implements Callable<Integer> {

    private static final String NAME = "sluice verify";
    /** How long each storage request is retried before verify says the store does not answer. */
    private static final Duration STORE_RETRY = Duration.ofMinutes(1);
    /**
     * How often a long audit says how far it has read; the quick start's 200,000 records in 1,568 files take about 7 s.
     */
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);

    @Parameters(arity = "0..1", paramLabel = "FILE", description = "The pipeline that wrote the archive; or a mirror "
            + "file (the target is audited against the source, docs/mirror-audit.md); or a merge file (the output "
            + "against its inputs, docs/merge.md).")
    Path pipelineFile;

    @Mixin
    KafkaFlags kafka;

    @Mixin
    TopicFlags topicFlags;

    @Mixin
    GroupFlags groupFlags;

    @Option(names = "--storage", paramLabel = "URI", description = "The archive's root, as the archiver was given it: "
            + "a folder, s3://bucket/prefix/ (AWS credentials and region from the AWS default chain; other S3 "
            + "settings through a pipeline file) or hdfs://namenode:8020/path. Instead of the pipeline's "
            + "sink.location.")
    String storage;

    @Option(names = "--dead-letter-topic", paramLabel = "TOPIC", description = "Records found there are not expected "
            + "in the archive, and are listed with their error (instead of the pipeline's).")
    String deadLetterTopic;

    @Option(names = "--from", paramLabel = "PARTITION=OFFSET", description = "Audit PARTITION from OFFSET on; "
            + "repeatable. With --from or --to, only the partitions named are audited.")
    Map<Integer, Long> from;

    @Option(names = "--to", paramLabel = "PARTITION=OFFSET", description = "Audit PARTITION up to OFFSET, not "
            + "included (by default the last stable offset when the audit starts); repeatable.")
    Map<Integer, Long> to;

    @Option(names = "--json", description = "The report as one JSON object per topic, one per line.")
    boolean json;

    @Option(names = "--until-source-end", description = "For a mirror file: audit up to the source's end rather than "
            + "up to the mirror's progress; for a mirror that was stopped after catching up.")
    boolean untilSourceEnd;

    @Spec
    CommandLine.Model.CommandSpec spec;

    private final CliContext context;

    VerifyCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        // a merge file has a target section too: it is told apart first
        if (pipelineFile != null && MergeFile.isMerge(pipelineFile)) {
            MergeFile merge = MergeFile.load(pipelineFile, context.variables());
            int probed = new BootstrapProbe(Duration.ofSeconds(5)).verifyClusters(NAME, ClusterRoles.of(merge.config()),
                    spec.commandLine().getErr());
            return probed != 0 ? probed : MergeVerification.run(merge, json, context.console());
        }
        if (pipelineFile != null && MirrorFile.isMirror(pipelineFile)) {
            MirrorFile mirror = MirrorFile.load(pipelineFile, context.variables());
            int probed = new BootstrapProbe(Duration.ofSeconds(5)).verifyClusters(NAME,
                    ClusterRoles.of(mirror.config()), spec.commandLine().getErr());
            if (probed != 0) {
                return probed;
            }
            MirrorAuditReport report = MirrorVerification.run(mirror, untilSourceEnd);
            context.console().result(json ? report.toJson() : report.toText());
            return report.exitStatus();
        }
        Pipeline pipeline = pipelineFile == null ? null : Pipelines.loadToRead(pipelineFile, context.variables());
        Map<String, Object> client = kafka.clientProperties(pipeline == null ? Map.of()
                : pipeline.source().clientProperties());
        if (client.get("bootstrap.servers") == null) {
            throw usage("name the brokers with --bootstrap-servers, or give the pipeline file");
        }
        StorageTarget target = storage(pipeline);
        PrintWriter err = spec.commandLine().getErr();
        int probed = new BootstrapProbe(Duration.ofSeconds(5)).verifyFor(NAME, client, err);
        if (probed != 0) {
            return probed;
        }
        List<String> topics = topicFlags.topics(null);
        if (topics == null) {
            topics = pipeline != null ? SourceTopics.resolve(pipeline.source()) : List.of();
        }
        if (topics.isEmpty()) {
            throw usage("name the archived topic with --topic, or give the pipeline file");
        }
        if ((from != null || to != null) && topics.size() > 1) {
            throw usage("--from and --to name partitions of one topic; choose it with --topic (the pipeline has "
                    + String.join(", ", topics) + ")");
        }
        int status = ExitStatus.OK;
        // a minute per request, not the run's outage window: verify with the store down was silent for 5 minutes
        try (StorageBackend backend = target.withRetryAtMost(STORE_RETRY).open()) {
            for (String topic : topics) {
                AuditReport report = audit(pipeline, topic, client, backend);
                context.console().result(json ? report.json() : report.text());
                status = Math.max(status, report.exitStatus());
                if (pipeline != null && pipeline.processing().onFailure() == FailureOutcome.SKIP
                        && report.missing() > 0) {
                    // the report's advice (restore from a backup) is for files lost; a skipping pipeline's gaps are
                    // its own choice, which verify cannot see (a new user's run)
                    context.console().say("note: this pipeline skips the records it cannot write (processing."
                            + "on-failure: skip), so the offsets it skipped are missing here by design; its run's log "
                            + "names each one. With a dead-letter topic instead (on-failure: dead-letter), verify "
                            + "accounts for each such record.");
                }
            }
        }
        return status;
    }

    private AuditReport audit(Pipeline pipeline, String topic, Map<String, Object> client, StorageBackend backend)
            throws RunFailure {
        AuditConfig.Builder audit = pipeline != null ? PipelineParts.audit(pipeline, topic, backend)
                : AuditConfig.builder().topic(topic).storage(backend);
        audit.kafkaProperties(client);
        if (groupFlags.group(null) != null) {
            audit.groupId(groupFlags.group(null));
        }
        if (deadLetterTopic != null) {
            audit.deadLetterTopic(deadLetterTopic);
        }
        AuditTicker ticker = new AuditTicker(context.console(), "checking " + topic + ": ", PROGRESS_EVERY);
        audit.progress(ticker);
        AuditConfig config;
        try {
            for (int partition : partitionsWithBounds()) {
                audit.range(partition, from == null ? 0 : from.getOrDefault(partition, 0L),
                        to == null ? AuditConfig.OffsetRange.LAST_STABLE
                                : to.getOrDefault(partition, AuditConfig.OffsetRange.LAST_STABLE));
            }
            config = audit.build();
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        try {
            return Audit.run(config);
        } catch (AuditException e) {
            throw new RunFailure("cannot audit " + topic + ": " + e.getMessage(), e);
        } finally {
            ticker.finish();
        }
    }

    private List<Integer> partitionsWithBounds() {
        TreeSet<Integer> partitions = new TreeSet<>();
        if (from != null) {
            partitions.addAll(from.keySet());
        }
        if (to != null) {
            partitions.addAll(to.keySet());
        }
        return List.copyOf(partitions);
    }

    /** The archive: {@code --storage}, else the pipeline's location. */
    private StorageTarget storage(Pipeline pipeline) {
        StorageTarget target;
        if (storage != null) {
            try {
                target = StorageTarget.of(storage, Path.of("").toAbsolutePath());
            } catch (IllegalArgumentException e) {
                throw usage("--storage: " + e.getMessage());
            }
        } else if (pipeline != null) {
            target = pipeline.sink().storage();
        } else {
            throw usage("name the archive with --storage, or give the pipeline file");
        }
        if (!target.backend().available()) {
            throw usage(target.backend().scheme() + ":// is not in this build yet (" + target.backend().pending() + ")");
        }
        return target;
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
