"""corpus-oa-y: cut the new specs to coherent resources (whole paths with every component they reference, via
subset_spec.subset). Chosen (providers, licences) and cut by tag before their operations were studied (Apache
Polaris' management API has no tags and is kept whole); all five are the twenty-eighth session's fresh set. (Passed
over: Budibase and Lightdash (repositories over 500 MB, not fetched); GOV.UK Pay's publicapi_spec.json (16
operations whole, under 30); Cloudsmith's cloudsmith-api (no spec file in the repository: it is fetched at build
time); Strimzi's Kafka Bridge openapi.json (25 operations whole, under 30).)

Inputs (read with `git show <commit>:<path>` from the public repositories, saved under /tmp/corpus-oa-y/):
  polaris.yaml     github.com/apache/polaris                             4b42186383089e2083ba857a0211c4ab36965703
                   spec/polaris-management-service.yml (Polaris Management Service, OpenAPI 3.0.3; Apache-2.0)
  kubeflow.json    github.com/kubeflow/pipelines                         7b70c7b95f6832772efd6fd0029a4024491a0f44
                   backend/api/v2beta1/swagger/kfp_api_single_file.swagger.json (Kubeflow Pipelines API v2beta1,
                   Swagger 2.0 from grpc-gateway; Apache-2.0)
  configcat.yaml   github.com/configcat/configcat-publicapi-go-client    f19ba451e39d9db732fbdcc26a7168485049d516
                   api/openapi.yaml (ConfigCat Public Management API v1, OpenAPI 3.0.1; MIT)
  mediamtx.yaml    github.com/bluenviron/mediamtx                        3e09466c180431272a656b48aeca39c83d52d6c6
                   api/openapi.yaml (MediaMTX control API v3, OpenAPI 3.0.0; MIT)
  gotosocial.yaml  github.com/superseriousbusiness/gotosocial            57cb4fe7482962aa8e5a05874a343474d5a453e7
                   docs/api/swagger.yaml (GoToSocial client API, Swagger 2.0 from go-swagger; AGPL-3.0)

    python corpus-oa-y_subset.py
"""

from __future__ import annotations

from pathlib import Path

from subset_spec import cut_by_tags  # this directory is on sys.path

SRC = Path("/tmp/corpus-oa-y")
OUT = Path(__file__).resolve().parent.parent / "openapi"
TAGS = {
    # Kubeflow Pipelines: experiments, pipelines and their versions (and uploads), runs, recurring runs; not the
    # auth, dummy filter, health, report (the persistence agent's) and visualization services
    "kubeflow_pipelines": {
        "ExperimentService",
        "PipelineService",
        "PipelineUploadService",
        "RunService",
        "RecurringRunService",
    },
    # ConfigCat: the organization, products, configs, environments, feature flags and settings, their values (V2),
    # tags, segments, webhooks; not permission groups, members, integrations and links, audit logs, code
    # references, SDK keys, me, the V1 and SDK-key value endpoints
    "configcat": {
        "Organizations",
        "Products",
        "Configs",
        "Environments",
        "Feature Flags & Settings",
        "Feature Flag & Setting values V2",
        "Tags",
        "Segments",
        "Webhooks",
    },
    # MediaMTX: configuration (global, path defaults, paths), paths, HLS muxers, RTSP / RTMP / SRT / WebRTC
    # connections and sessions, recordings; not the info endpoint, the authentication JWKS refresh, Media-over-QUIC
    "mediamtx": {"Configuration", "Paths", "HLS", "RTSP", "RTMP", "SRT", "WebRTC", "Recordings"},
    # GoToSocial: filters (v1 and v2, keywords and statuses), lists, polls, scheduled statuses, interaction
    # requests; not accounts, statuses, admin, timelines, notifications, media, instance, OAuth and the rest
    "gotosocial": {"filters", "lists", "polls", "scheduled_statuses", "interaction_requests"},
}
SPECS = {
    "polaris": "polaris.yaml",  # untagged: kept whole (33 operations)
    "kubeflow_pipelines": "kubeflow.json",
    "configcat": "configcat.yaml",
    "mediamtx": "mediamtx.yaml",
    "gotosocial": "gotosocial.yaml",
}


def main():
    cut_by_tags(SPECS, TAGS, SRC, OUT, "corpus-oa-y")


if __name__ == "__main__":
    main()
