package io.sluice.cli.merge;

import io.sluice.cli.RunFailure;
import io.sluice.cli.config.ConfigException;
import io.sluice.cli.config.Variables;
import io.sluice.cli.console.Units;
import io.sluice.cli.pipeline.MergeFile;
import io.sluice.cli.probe.BootstrapProbe;
import io.sluice.cli.probe.ClusterRoles;
import io.sluice.cli.run.EngineRun;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeProgress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * {@code sluice lag MERGE.yaml}: per output partition and input, the position committed with the output, the input
 * partition's end and the lag between them, then the lag per input. A merge's progress is no consumer group's, so
 * this is a table of its own rather than the group report.
 *
 * <p>Stateless.
 */
public final class MergeLag {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String[] HEADER = {"PARTITION", "INPUT", "TOPIC", "COMMITTED", "END", "LAG"};

    private MergeLag() {
    }

    /** The report of a merge file; empty for any other file (its lag is a consumer group's). */
    public static Optional<String> report(Path file, Variables variables) throws ConfigException, RunFailure {
        if (!MergeFile.isMerge(file)) {
            return Optional.empty();
        }
        MergeConfig config = MergeFile.load(file, variables).config();
        probe(config);
        try (MergeProgress progress = MergeProgress.of(config, TIMEOUT)) {
            return Optional.of(render(config, progress.read()));
        } catch (IllegalStateException e) {
            throw new RunFailure(e.getMessage(), e);
        } catch (TimeoutException e) {
            // its message is null: the report said "is: null" after 35 s (a new user's run)
            throw new RunFailure("cannot read how far merge " + config.name() + " is: its clusters (the inputs' and "
                    + "the target) did not all answer within " + TIMEOUT.toSeconds() + " s", e);
        } catch (Exception e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new RunFailure("cannot read how far merge " + config.name() + " is: " + EngineRun.describe(cause),
                    e);
        }
    }

    /**
     * Each cluster of the merge, asked first whether it answers at all, so that one that is down is named at once
     * rather than after the report's 30 s (as {@code verify} does).
     */
    private static void probe(MergeConfig config) throws RunFailure {
        BootstrapProbe probe = new BootstrapProbe(Duration.ofSeconds(5));
        for (Map.Entry<String, Map<String, ?>> cluster : ClusterRoles.of(config).entrySet()) {
            try {
                probe.verify(cluster.getValue());
            } catch (BootstrapProbe.BootstrapException e) {
                throw new RunFailure("cannot read how far merge " + config.name() + " is: " + cluster.getKey() + " ("
                        + cluster.getValue().get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) + "): "
                        + (e.mismatch() ? "" : "no broker answers: ") + e.getMessage(), e);
            }
        }
    }

    private static boolean pastEnd(MergeProgress.InputLag r) {
        return r.known() && r.committed() > r.end();
    }

    static String render(MergeConfig config, List<MergeProgress.InputLag> rows) {
        List<String[]> cells = new ArrayList<>();
        cells.add(HEADER);
        for (MergeProgress.InputLag r : rows) {
            String topic = config.inputs().stream().filter(i -> i.name().equals(r.input())).findFirst().orElseThrow()
                    .topic();
            cells.add(new String[] {Integer.toString(r.partition()), r.input(), topic,
                r.committed() < 0 ? "-" : Units.count(r.committed()), r.known() ? Units.count(r.end()) : "?",
                !r.known() ? "?" : pastEnd(r) ? "past end!" : Units.count(r.lag())});
        }
        int[] widths = new int[HEADER.length];
        cells.forEach(row -> {
            for (int c = 0; c < row.length; c++) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        });
        StringBuilder out = new StringBuilder("Merge " + config.name() + " into " + config.outputTopic()
                + " (committed positions in group " + config.stateGroup() + ")\n");
        for (String[] row : cells) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < row.length; c++) {
                String format = "%" + (c == 1 || c == 2 ? "-" : "") + widths[c] + "s";
                line.append(c == 0 ? "" : "  ").append(String.format(format, row[c]));
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        InputLags lags = InputLags.of(config, rows);
        out.append("\nTotal lag ").append(Units.count(lags.total())).append(" records (").append(lags.perInput())
                .append(")\n");
        if (rows.stream().anyMatch(r -> !r.known())) {
            out.append("Note: '?': the input's cluster did not give the partition's end within ").append(
                    Units.duration(TIMEOUT)).append(" (a partition without a leader?); the totals leave it out\n");
        }
        if (rows.stream().anyMatch(MergeLag::pastEnd)) {
            // it read "LAG 0" and "Total lag 0" while the merge could not go on (a new user's run)
            out.append("Note: 'past end!': the merge committed a position beyond the input partition's end: its topic "
                    + "was deleted and created again, or its log was cut. The merge stops there; its way on is a new "
                    + "output topic under a new merge name (docs/merge.md)\n");
        }
        if (rows.stream().anyMatch(r -> r.committed() < 0)) {
            out.append("Note: '-': the output partition has no commit yet; its lag counts from the input's "
                    + "beginning, where the merge starts\n");
        }
        return out.toString();
    }
}
