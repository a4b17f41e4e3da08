package io.railmap.cli;

/** Entry point of {@code bin/railmap}. */
public final class Main {
    private Main() {
    }

    /** @param args the command line */
    public static void main(String[] args) {
        System.exit(Railmap.run(args));
    }
}
