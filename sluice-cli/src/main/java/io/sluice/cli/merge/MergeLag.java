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
import io.sluice.merge.MergeInput;
import io.sluice.merge.MergeProgress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
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
        Map<String, String> silent = probe(config);
        try (MergeProgress progress = MergeProgress.of(config, TIMEOUT)) {
            return Optional.of(render(config, progress.read(silent.keySet()), silent));
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
     * rather than after the report's 30 s (as {@code verify} does). The target holds the committed positions, so
     * without it there is no report; an input that does not answer has its rows shown as unknown (the report named it
     * and showed nothing of the others, a new user's run), unless none answers.
     *
     * @return the inputs that do not answer, each with what was found, in words
     */
    private static Map<String, String> probe(MergeConfig config) throws RunFailure {
        BootstrapProbe probe = new BootstrapProbe(Duration.ofSeconds(5));
        Map<String, String> silent = new LinkedHashMap<>();
        List<String> said = new ArrayList<>();
        for (Map.Entry<String, Map<String, ?>> cluster : ClusterRoles.of(config).entrySet()) {
            try {
                probe.verify(cluster.getValue());
            } catch (BootstrapProbe.BootstrapException e) {
                String words = cluster.getKey() + " (" + cluster.getValue().get(
                        CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) + "): " + (e.mismatch() ? ""
                                : "no broker answers: ") + e.getMessage();
                Optional<String> input = config.inputs().stream().map(MergeInput::name)
                        .filter(name -> ClusterRoles.inputRole(name).equals(cluster.getKey())).findFirst();
                if (input.isEmpty()) {
                    throw new RunFailure("cannot read how far merge " + config.name() + " is: " + words, e);
                }
                silent.put(input.get(), words);
                said.add(words);
            }
        }
        if (silent.size() == config.inputs().size()) {
            throw new RunFailure("cannot read how far merge " + config.name() + " is: " + String.join("; ", said));
        }
        return silent;
    }

    private static boolean pastEnd(MergeProgress.InputLag r) {
        return r.known() && r.committed() > r.end();
    }

    static String render(MergeConfig config, List<MergeProgress.InputLag> rows) {
        return render(config, rows, Map.of());
    }

    /** @param silent the inputs whose cluster does not answer, each with what was found */
    static String render(MergeConfig config, List<MergeProgress.InputLag> rows, Map<String, String> silent) {
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
        silent.forEach((input, words) -> out.append("Note: ").append(words).append(": its rows show '?', and the "
                + "totals leave it out\n"));
        if (rows.stream().anyMatch(r -> !r.known() && !silent.containsKey(r.input()))) {
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
