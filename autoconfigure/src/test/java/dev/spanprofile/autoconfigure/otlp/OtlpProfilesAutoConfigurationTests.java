package dev.spanprofile.autoconfigure.otlp;

import dev.spanprofile.autoconfigure.SpanProfileAutoConfiguration;
import dev.spanprofile.otlp.OtlpProfilesExporter;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

class OtlpProfilesAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withPropertyValues("spanprofile.engine=jfr")
		.withConfiguration(
				AutoConfigurations.of(SpanProfileAutoConfiguration.class, OtlpProfilesAutoConfiguration.class));

	@Test
	void offByDefault() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(OtlpProfilesExporter.class));
	}

	@Test
	void enabledExportsWithTheConfiguredSettings() {
		this.contextRunner
			.withPropertyValues("spanprofile.otlp.enabled=true", "spanprofile.otlp.export-interval=2s",
					"spanprofile.otlp.queue-capacity=3", "spanprofile.otlp.compression=none",
					"spanprofile.otlp.headers.Authorization=Bearer x")
			.run((context) -> {
				assertThat(context).hasSingleBean(OtlpProfilesExporter.class);
				OtlpProfilesProperties properties = context.getBean(OtlpProfilesProperties.class);
				assertThat(properties.getExportInterval().toSeconds()).isEqualTo(2);
				assertThat(properties.getCompression()).isEqualTo(OtlpProfilesProperties.Compression.NONE);
				assertThat(properties.getHeaders()).containsEntry("Authorization", "Bearer x");
				assertThat(properties.getEndpoint()).isEqualTo("http://localhost:4318/v1development/profiles");
			});
	}

	@Test
	void notWhenSpanProfileIsDisabled() {
		this.contextRunner.withPropertyValues("spanprofile.enabled=false", "spanprofile.otlp.enabled=true")
			.run((context) -> assertThat(context).doesNotHaveBean(OtlpProfilesExporter.class));
	}

	@Test
	void notWithoutTheProtoClasses() {
		this.contextRunner.withPropertyValues("spanprofile.otlp.enabled=true")
			.withClassLoader(new FilteredClassLoader(ExportProfilesServiceRequest.class))
			.run((context) -> assertThat(context).doesNotHaveBean(OtlpProfilesExporter.class));
	}

}
