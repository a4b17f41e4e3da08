package io.railmap.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link ClusterWorker} JVM as {@link ClusterBench} drives it: commands written to its standard
 * input, one answer line read back per command, its log in a file of its own.
 */
final class WorkerProcess implements AutoCloseable {
    private final Process process;
    private final PrintStream in;
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private final String name;
    private final String javaVersion;

    /**
     * Starts the JVM and waits for it to say {@code ready}.
     *
     * @param java    the {@code java} launcher
     * @param jvm     options for the JVM
     * @param args    the worker's arguments ({@link ClusterWorker})
     * @param log     where its standard error goes
     * @param name    what to call it in errors
     * @param readyMs how long to wait for it to be ready
     * @throws IllegalStateException when it does not say ready in time
     */
    WorkerProcess(String java, List<String> jvm, List<String> args, Path log, String name, long readyMs) throws IOException {
        this.name = name;
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvm);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(ClusterWorker.class.getName());
        command.addAll(args);
        process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    answers.add(line);
                }
            } catch (IOException e) {
                // the worker is gone: the next answer times out
            }
            answers.add("exited");
        }, "bench-" + name);
        reader.setDaemon(true);
        reader.start();
        // a JVM agent (a profiler given in JAVA_TOOL_OPTIONS) may print a line of its own first
        long deadline = System.nanoTime() + readyMs * 1_000_000;
        String ready = answer(readyMs);
        while (!ready.startsWith("ready ") && System.nanoTime() < deadline) {
            ready = answer(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        }
        if (!ready.startsWith("ready ")) {
            throw new IllegalStateException(name + " did not start (" + ready + "); see " + log);
        }
        javaVersion = ready.substring("ready ".length());
    }

    /** @return the Java version the worker runs on */
    String javaVersion() {
        return javaVersion;
    }

    /** Sends a command; its answer is read with {@link #answer}. */
    void send(String command) {
        in.println(command);
    }

    /**
     * @param timeoutMs how long to wait
     * @return the next answer line
     * @throws IllegalStateException when none comes in time or the worker exited
     */
    String answer(long timeoutMs) {
        try {
            String line = answers.poll(timeoutMs, TimeUnit.MILLISECONDS);
            if (line == null || line.equals("exited")) {
                throw new IllegalStateException(name + (line == null ? " did not answer within " + timeoutMs + " ms" : " exited"));
            }
            return line;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for " + name, e);
        }
    }

    /** @return the JVM's process id */
    long pid() {
        return process.pid();
    }

    /** Kills the JVM at once (SIGKILL): its members crash without leaving. */
    void kill() {
        process.destroyForcibly();
    }

    /** Asks the members to leave and the JVM to exit; kills it when it has not within 15 s. */
    @Override
    public void close() {
        try {
            if (process.isAlive()) {
                send("stop");
                if (!process.waitFor(15, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
