package dev.spanprofile.autoconfigure.otlp;

import java.net.URI;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.autoconfigure.SpanProfileAutoConfiguration;
import dev.spanprofile.autoconfigure.SpanProfileProperties;
import dev.spanprofile.otlp.OtlpProfilesExporter;
import dev.spanprofile.otlp.OtlpSettings;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.sdk.resources.Resource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * {@code spanprofile.otlp.enabled=true}: every completed local root's samples are
 * exported as OTLP profiles whose samples link to their span, with the application's
 * OpenTelemetry resource.
 */
@AutoConfiguration(after = SpanProfileAutoConfiguration.class)
@ConditionalOnClass(ExportProfilesServiceRequest.class)
@ConditionalOnBooleanProperty("spanprofile.otlp.enabled")
@ConditionalOnBean(SpanProfiler.class)
@EnableConfigurationProperties(OtlpProfilesProperties.class)
public final class OtlpProfilesAutoConfiguration {

	private static final AttributeKey<String> SERVICE_NAME = AttributeKey.stringKey("service.name");

	OtlpProfilesAutoConfiguration() {
	}

	@Bean(destroyMethod = "close")
	OtlpProfilesExporter spanProfileOtlpExporter(SpanProfiler spanProfiler, OtlpProfilesProperties properties,
			SpanProfileProperties spanProfileProperties, ObjectProvider<Resource> resource, Environment environment) {
		OtlpSettings settings = new OtlpSettings(URI.create(properties.getEndpoint()), properties.getHeaders(),
				properties.getCompression() == OtlpProfilesProperties.Compression.GZIP, properties.getExportInterval(),
				properties.getTimeout(), properties.getQueueCapacity(), properties.getMaxTries(),
				spanProfileProperties.isRootSpanOnly());
		OtlpProfilesExporter exporter = new OtlpProfilesExporter(settings, spanProfiler.store().frames(),
				spanProfiler.settings().sampler().interval().toNanos(),
				resource.getIfAvailable(() -> fallbackResource(environment)));
		spanProfiler.onProfileComplete(exporter);
		return exporter;
	}

	/**
	 * No OpenTelemetry resource bean: the SDK's default, named like the application when
	 * it has a name.
	 */
	private static Resource fallbackResource(Environment environment) {
		String name = environment.getProperty("spring.application.name");
		Resource defaults = Resource.getDefault();
		return (name != null) ? defaults.merge(Resource.create(Attributes.of(SERVICE_NAME, name))) : defaults;
	}

}
