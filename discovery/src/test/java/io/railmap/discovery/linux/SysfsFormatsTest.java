package io.railmap.discovery.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railmap.matrix.model.PortKind;
import io.railmap.matrix.model.PortState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SysfsFormatsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "1: DOWN|DOWN", "2: INIT|INIT", "3: ARMED|ARMED", "4: ACTIVE|ACTIVE", "5: ACTIVE_DEFER|UNKNOWN"})
    void ibStateMapsTheKernelsStates(String text, PortState expected) {
        assertThat(SysfsFormats.ibState(text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ACTIVE", "4:ACTIVE", "4: DOWN", "9: ACTIVE", "99999999999: ACTIVE", ""})
    void ibStateRejectsOddText(String text) {
        assertThatThrownBy(() -> SysfsFormats.ibState(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "400 Gb/sec (4X NDR)|400.0", "200 Gb/sec (2X NDR)|200.0", "100 Gb/sec (4X EDR)|100.0",
            "2.5 Gb/sec (1X SDR)|2.5", "25 Gb/sec|25.0"})
    void rateReadsGbPerSecond(String text, double expected) {
        assertThat(SysfsFormats.rateGbps(text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"400", "400 Gb/s", "Gb/sec (4X NDR)", "400 Mb/sec (4X NDR)"})
    void rateRejectsOddText(String text) {
        assertThatThrownBy(() -> SysfsFormats.rateGbps(text)).hasMessageContaining(text);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"5: LinkUp|true", "3: Disabled|false", "2: Polling|false"})
    void physStateIsUpOnlyAtLinkUp(String text, boolean up) {
        assertThat(SysfsFormats.physLinkUp(text)).isEqualTo(up);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"InfiniBand|INFINIBAND", "Ethernet|ROCE"})
    void linkLayerGivesTheKind(String text, PortKind kind) {
        assertThat(SysfsFormats.linkLayer(text)).isEqualTo(kind);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"25000|25.0", "100000|100.0", "10|0.01"})
    void speedConvertsMbPerSecondToGbPerSecond(String text, double gbps) {
        assertThat(SysfsFormats.speedGbps(text)).contains(gbps);
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "0", "4294967295"})
    void speedTheDriverDoesNotKnowIsEmpty(String text) {
        assertThat(SysfsFormats.speedGbps(text)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"up|true", "unknown|true", "down|false", "lowerlayerdown|false", "dormant|false"})
    void operstateUpOrUnknownCountsAsUp(String text, boolean up) {
        assertThat(SysfsFormats.operUp(text)).isEqualTo(up);
    }

    @ParameterizedTest
    @ValueSource(strings = {"UP", "running", ""})
    void operstateRejectsOddText(String text) {
        assertThatThrownBy(() -> SysfsFormats.operUp(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2", "yes", ""})
    void carrierIsZeroOrOne(String text) {
        assertThatThrownBy(() -> SysfsFormats.carrier(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "0C:42:A1:40:29:A0|0c:42:a1:40:29:a0",
            "00:00:10:87:fe:80:00:00:00:00:00:00:50:6b:4b:03:00:f5:ce:9c|00:00:10:87:fe:80:00:00:00:00:00:00:50:6b:4b:03:00:f5:ce:9c"})
    void hardwareAddressIsLowerCased(String text, String expected) {
        assertThat(SysfsFormats.hardwareAddress(text)).contains(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0c:42:a1:40:29:a", "0c-42-a1-40-29-a0", "0c:42:a1:40:29:zz"})
    void hardwareAddressRejectsOddText(String text) {
        assertThatThrownBy(() -> SysfsFormats.hardwareAddress(text)).isInstanceOf(IllegalArgumentException.class);
    }

    /** Thunderbolt: {@code %pUb} UUIDs (real ones from fixtures/README.md), {@code "%u.0 Gb/s"} per lane, 1 to 3 lanes. */
    @ParameterizedTest
    @ValueSource(strings = {"c6030000-0080-7518-2391-a4e51a82e819", "817DCFA4-B481-4100-80FC-91C7AA969F0B"})
    void uuidTakesTheKernelsForm(String text) {
        assertThat(SysfsFormats.uuid(text)).isEqualTo(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"c6030000-0080-7518-2391", "c6030000008075182391a4e51a82e819", "g6030000-0080-7518-2391-a4e51a82e819",
            "c6030000-0080-7518-2391-a4e51a82e819-00", ""})
    void uuidRejectsOddText(String text) {
        assertThatThrownBy(() -> SysfsFormats.uuid(text)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not a UUID");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"20.0 Gb/s|20.0", "40.0 Gb/s|40.0", "10.0 Gb/s|10.0"})
    void laneSpeedReadsGbPerSecond(String text, double gbps) {
        assertThat(SysfsFormats.laneSpeedGbps(text)).isEqualTo(gbps);
    }

    @ParameterizedTest
    @ValueSource(strings = {"20 Gb/s", "20.5 Gb/s", "20.0 Gb/sec", "99999.0 Gb/s", "-20.0 Gb/s"})
    void laneSpeedRejectsOddText(String text) {
        assertThatThrownBy(() -> SysfsFormats.laneSpeedGbps(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "4", "02", "two", ""})
    void lanesAreOneToThree(String text) {
        assertThatThrownBy(() -> SysfsFormats.lanes(text)).isInstanceOf(IllegalArgumentException.class);
        assertThat(SysfsFormats.lanes("3")).isEqualTo(3);
    }
}
