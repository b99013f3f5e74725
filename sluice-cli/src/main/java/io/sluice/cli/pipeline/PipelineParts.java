package io.sluice.cli.pipeline;

import io.sluice.audit.AuditConfig;
import io.sluice.cli.config.ConfigException;
import io.sluice.cli.lag.LagInputs;
import io.sluice.core.EngineConfig;
import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.sink.ArchiveSink;
import java.io.IOException;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * Builds what runs a pipeline and what looks at it: the engine's configuration, the archive sink, the inputs of
 * {@code lag} and the configuration of the audit ({@code verify}).
 *
 * <p>Stateless.
 */
public final class PipelineParts {

    private PipelineParts() {
    }

    /**
     * The engine configuration of {@code pipeline}, still open for additions (a meter registry).
     *
     * @param topics the topics to consume: the pipeline's own, or those its pattern matched
     */
    public static EngineConfig.Builder engine(Pipeline pipeline, List<String> topics) {
        SourceConfig source = pipeline.source();
        ProcessingConfig processing = pipeline.processing();
        EngineConfig.Builder builder = EngineConfig.builder()
                .consumerProperties(source.clientProperties())
                .groupId(source.group())
                .topics(topics.toArray(String[]::new))
                .startPosition(source.start())
                .outOfRangePolicy(source.onOutOfRange())
                .concurrency(processing.concurrency())
                .memoryBudgetBytes(processing.memoryBudget())
                .commitInterval(processing.commitInterval())
                .drainTimeout(processing.drainTimeout())
                .maxAttempts(processing.maxAttempts())
                .backoff(processing.retryBackoff(), processing.retryBackoffMax())
                .failureOutcome(processing.onFailure())
                .deadLetterRetryFor(processing.deadLetterRetryFor());
        if (!source.extra().containsKey(ConsumerConfig.CLIENT_ID_CONFIG)) {
            // names the pipeline in the brokers' logs and quotas
            builder.consumerProperty(ConsumerConfig.CLIENT_ID_CONFIG, "sluice-" + source.group());
        }
        if (processing.deadLetterTopic() != null) {
            builder.deadLetterTopic(processing.deadLetterTopic());
        }
        if (source.maxReadRate() != null) {
            builder.maxReadBytesPerSecond(source.maxReadRate());
        }
        return builder;
    }

    /** The sink's storage backend. Throws for a backend this build does not have yet. */
    public static StorageBackend backend(Pipeline pipeline) throws ConfigException, IOException {
        pipeline.requireRunnable();
        return pipeline.sink().storage().open();
    }

    /** The archive sink of {@code pipeline}. Throws for a backend this build does not have yet. */
    public static ArchiveSink sink(Pipeline pipeline) throws ConfigException, IOException {
        SinkConfig sink = pipeline.sink();
        return new ArchiveSink(backend(pipeline), sink.layout(), sink.files().config().fileFormat(), sink.rolling(),
                sink.delivery() == Delivery.EXACTLY_ONCE, openFilesHeap(pipeline.processing()),
                pipeline.processing().compressingThreads(), ArchiveSink.DEFAULT_FOLD_MANIFESTS_AFTER,
                pipeline.source().group());
    }

    /** What {@code sluice lag} looks at for the pipeline: its group on its topics, with its client settings. */
    public static LagInputs lag(Pipeline pipeline, List<String> topics) {
        return new LagInputs(pipeline.source().group(), topics, pipeline.source().clientProperties(), List.of());
    }

    /**
     * The heap the open files may hold together before the partition holding the most rolls early: half the memory
     * budget, which counts these bytes too, so that queued records keep the other half (docs/rolling.md).
     */
    static long openFilesHeap(ProcessingConfig processing) {
        return processing.memoryBudget() / 2;
    }

    /**
     * The audit of {@code topic}'s archive as the pipeline wrote it: its brokers and client settings, its
     * dead-letter topic, its group's commits. Still open for ranges; the caller closes {@code storage}.
     */
    public static AuditConfig.Builder audit(Pipeline pipeline, String topic, StorageBackend storage) {
        AuditConfig.Builder audit = AuditConfig.builder()
                .kafkaProperties(pipeline.source().clientProperties())
                .topic(topic)
                .storage(storage)
                .groupId(pipeline.source().group());
        if (pipeline.processing().deadLetterTopic() != null) {
            audit.deadLetterTopic(pipeline.processing().deadLetterTopic());
        }
        return audit;
    }
}
