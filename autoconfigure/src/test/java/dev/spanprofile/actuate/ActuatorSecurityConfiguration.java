package dev.spanprofile.actuate;

import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * How an application typically locks its actuator down: health is public, every other
 * endpoint needs the OPS role, over HTTP basic. Application paths are left alone.
 */
@TestConfiguration(proxyBeanMethods = false)
class ActuatorSecurityConfiguration {

	static final String OPS_USER = "ops";

	static final String OPS_PASSWORD = "correct horse battery staple";

	static final String DEV_USER = "dev";

	static final String DEV_PASSWORD = "tr0ub4dor&3";

	@Bean
	SecurityFilterChain actuatorSecurity(HttpSecurity http) throws Exception {
		http.securityMatcher(EndpointRequest.toAnyEndpoint())
			.authorizeHttpRequests((requests) -> requests.requestMatchers(EndpointRequest.to("health"))
				.permitAll()
				.anyRequest()
				.hasRole("OPS"))
			.httpBasic(Customizer.withDefaults());
		return http.build();
	}

	@Bean
	InMemoryUserDetailsManager users() {
		return new InMemoryUserDetailsManager(
				User.withUsername(OPS_USER).password("{noop}" + OPS_PASSWORD).roles("OPS").build(),
				User.withUsername(DEV_USER).password("{noop}" + DEV_PASSWORD).roles("DEV").build());
	}

}
