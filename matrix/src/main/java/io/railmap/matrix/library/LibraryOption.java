package io.railmap.matrix.library;

/**
 * An option of {@code railmap env} (and {@code GET /v1/env}) that only some libraries read. Each
 * {@link Library} says which it reads ({@link Library#options()}); choosing one that no library asked
 * for reads is refused ({@link NodeEnv#requireRead}), and the API's list of parameters is made from
 * these.
 */
public enum LibraryOption {
    /** ModelExpress's stripe mode ({@link SettingsOptions#mxStripe()}). */
    MX_STRIPE(LibraryOption.MX_STRIPE_FLAG, "mxStripe");

    /** The command line's flag of {@link #MX_STRIPE}, a constant for picocli's annotation. */
    public static final String MX_STRIPE_FLAG = "--mx-stripe";

    private final String flag;
    private final String param;

    LibraryOption(String flag, String param) {
        this.flag = flag;
        this.param = param;
    }

    /** @return the command line's flag ({@code --mx-stripe}) */
    public String flag() {
        return flag;
    }

    /** @return the query parameter of {@code GET /v1/env} ({@code mxStripe}) */
    public String param() {
        return param;
    }

    /** @return true when the user chose the option in {@code options} */
    public boolean chosen(SettingsOptions options) {
        return switch (this) {
            case MX_STRIPE -> options.mxStripe();
        };
    }
}
