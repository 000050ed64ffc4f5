"""Gold provider edges of corpus-oa-b, written by hand (task corpus-oa-b) from the specs' descriptions and schemas.

    python corpus-oa-b_gold.py        # from benchmarks/data/deps; writes gold/<key>.json

Rule: (consumers, parameter, providers, type, reason); consumers "*" = every tool that has the parameter
(providers excluded). Types: PD/PI = PARAMETER_DIRECTLY/INDIRECTLY_DEPENDS_ON. Splits: consumer names with edges
sorted; even positions dev, odd test. Checked against the loaded catalog (every name and parameter must exist).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, "/work/main")
from benchmarks.eval.catalog_eval import read_catalog  # noqa: E402

TYPES = {"PD": "PARAMETER_DIRECTLY_DEPENDS_ON", "PI": "PARAMETER_INDIRECTLY_DEPENDS_ON"}
P = "get_project_project_id"
SEMAPHORE = [
    ("*", "project_id", "get_projects", "PD", "[].id of projects"),
    ("get_users_user_id, put_users_user_id, delete_users_user_id, post_users_user_id_password", "user_id", "get_users", "PD", "[].id of users"),
    ("post_project_project_id_users", "user_id", "get_users", "PD", "[].id of users (to link)"),
    ("put_project_project_id_users_user_id, delete_project_project_id_users_user_id", "user_id", f"{P}_users", "PD", "[].id of the project's users"),
    ("*", "api_token_id", "get_user_tokens", "PD", "[].id of the user's API tokens"),
    ("*", "provider_id", "get_auth_login", "PD", "oidc_providers[].id of login metadata"),
    ("*", "integration_id", f"{P}_integrations", "PD", "[].id of integrations"),
    ("*", "extractvalue_id", f"{P}_integrations_integration_id_values", "PD", "[].id of extracted values"),
    ("*", "matcher_id", f"{P}_integrations_integration_id_matchers", "PD", "[].id of matchers"),
    ("*", "template_id", f"{P}_templates", "PD", "[].id of templates"),
    ("*", "key_id", f"{P}_keys", "PD", "[].id of access keys"),
    ("*", "ssh_key_id", f"{P}_keys", "PD", "[].id of access keys"),
    ("*", "become_key_id", f"{P}_keys", "PD", "[].id of access keys"),
    ("*", "repository_id", f"{P}_repositories", "PD", "[].id of repositories"),
    ("*", "inventory_id", f"{P}_inventory", "PD", "[].id of inventories"),
    ("*", "environment_id", f"{P}_environment", "PD", "[].id of environments"),
    ("*", "view_id", f"{P}_views", "PD", "[].id of views"),
    ("*", "schedule_id", "post_project_project_id_schedules", "PD", "id of the created schedule (no list of schedules)"),
    ("*", "task_id", f"{P}_tasks, {P}_tasks_last, post_project_project_id_tasks", "PD", "[].id of tasks / id of the started task"),
]

W = "WorkflowService_"
WF_NAMED = ", ".join(W + x for x in ["GetWorkflow", "DeleteWorkflow", "WorkflowLogs", "ResubmitWorkflow", "ResumeWorkflow",
                                     "RetryWorkflow", "SetWorkflow", "StopWorkflow", "SuspendWorkflow", "TerminateWorkflow", "PodLogs"])
ART = "ArtifactService_GetOutputArtifact, ArtifactService_GetInputArtifact"
ART_UID = "ArtifactService_GetOutputArtifactByUID, ArtifactService_GetInputArtifactByUID"
ARCH = "ArchivedWorkflowService_"
ARGO = [
    (WF_NAMED + ", " + ART, "name", f"{W}ListWorkflows, {W}CreateWorkflow, {W}SubmitWorkflow", "PD", "items[].metadata.name of workflows / metadata.name of the created or submitted workflow"),
    (f"{W}PodLogs, {W}WorkflowLogs", "podName", f"{W}GetWorkflow", "PI", "status.nodes{}.id / pod names of the workflow's nodes"),
    (ART + ", " + ART_UID + ", ArtifactService_GetArtifactFile", "nodeId", f"{W}GetWorkflow", "PI", "status.nodes{} ids of the workflow"),
    (ART + ", " + ART_UID + ", ArtifactService_GetArtifactFile", "artifactName", f"{W}GetWorkflow", "PI", "status.nodes{}.outputs/inputs.artifacts[].name"),
    ("ArtifactService_GetArtifactFile", "id", f"{W}ListWorkflows, {ARCH}ListArchivedWorkflows", "PD", "a workflow's metadata.name or an archived workflow's metadata.uid"),
    (ART_UID, "uid", f"{ARCH}ListArchivedWorkflows", "PD", "items[].metadata.uid of archived workflows"),
    (f"{ARCH}GetArchivedWorkflow, {ARCH}DeleteArchivedWorkflow, {ARCH}ResubmitArchivedWorkflow, {ARCH}RetryArchivedWorkflow", "uid", f"{ARCH}ListArchivedWorkflows", "PD", "items[].metadata.uid of archived workflows"),
    (f"{ARCH}GetArchivedWorkflow, {ARCH}DeleteArchivedWorkflow, {ARCH}ResubmitArchivedWorkflow, {ARCH}RetryArchivedWorkflow", "name", f"{ARCH}ListArchivedWorkflows", "PD", "items[].metadata.name of archived workflows"),
    ("ClusterWorkflowTemplateService_GetClusterWorkflowTemplate, ClusterWorkflowTemplateService_UpdateClusterWorkflowTemplate, ClusterWorkflowTemplateService_DeleteClusterWorkflowTemplate", "name", "ClusterWorkflowTemplateService_ListClusterWorkflowTemplates", "PD", "items[].metadata.name of cluster workflow templates"),
    ("CronWorkflowService_GetCronWorkflow, CronWorkflowService_UpdateCronWorkflow, CronWorkflowService_DeleteCronWorkflow, CronWorkflowService_ResumeCronWorkflow, CronWorkflowService_SuspendCronWorkflow", "name", "CronWorkflowService_ListCronWorkflows", "PD", "items[].metadata.name of cron workflows"),
    ("EventSourceService_GetEventSource, EventSourceService_UpdateEventSource, EventSourceService_DeleteEventSource, EventSourceService_EventSourcesLogs", "name", "EventSourceService_ListEventSources", "PD", "items[].metadata.name of event sources"),
    ("SensorService_GetSensor, SensorService_UpdateSensor, SensorService_DeleteSensor, SensorService_SensorsLogs", "name", "SensorService_ListSensors", "PD", "items[].metadata.name of sensors"),
    ("WorkflowTemplateService_GetWorkflowTemplate, WorkflowTemplateService_UpdateWorkflowTemplate, WorkflowTemplateService_DeleteWorkflowTemplate", "name", "WorkflowTemplateService_ListWorkflowTemplates", "PD", "items[].metadata.name of workflow templates"),
    (f"{W}SubmitWorkflow", "resourceName", "WorkflowTemplateService_ListWorkflowTemplates, ClusterWorkflowTemplateService_ListClusterWorkflowTemplates, CronWorkflowService_ListCronWorkflows", "PD", "items[].metadata.name of the template / cron workflow to submit from"),
    ("SyncService_GetSyncLimit, SyncService_UpdateSyncLimit, SyncService_DeleteSyncLimit", "key", "SyncService_CreateSyncLimit", "PD", "key of the created sync limit (no list)"),
]

CONTAINER_ID = ", ".join(["ContainerInspect", "ContainerTop", "ContainerLogs", "ContainerChanges", "ContainerExport", "ContainerStats",
                          "ContainerResize", "ContainerStart", "ContainerStop", "ContainerRestart", "ContainerKill", "ContainerUpdate",
                          "ContainerRename", "ContainerPause", "ContainerUnpause", "ContainerAttach", "ContainerAttachWebsocket",
                          "ContainerWait", "ContainerDelete", "ContainerArchive", "PutContainerArchive", "ContainerArchiveInfo", "ContainerExec"])
DOCKER = [
    (CONTAINER_ID, "id", "ContainerList", "PD", "[].Id (or a name, [].Names) of containers"),
    ("ImageCommit", "container", "ContainerList", "PD", "[].Id of containers"),
    ("NetworkConnect, NetworkDisconnect", "Container", "ContainerList", "PD", "[].Id or name of containers"),
    ("ExecStart, ExecResize, ExecInspect", "id", "ContainerExec", "PD", "Id of the created exec instance"),
    ("ExecStart, ExecResize, ExecInspect", "id", "ContainerInspect", "PI", "ExecIDs[] of the container"),
    ("ImageInspect, ImageAttestations, ImageHistory, ImagePush, ImageTag, ImageDelete, ImageGet, DistributionInspect", "name", "ImageList", "PD", "[].RepoTags[] / [].Id of images"),
    ("ImageGetAll", "names", "ImageList", "PD", "[].RepoTags[] of images"),
    ("ImageCreate", "fromImage", "ImageSearch", "PD", "[].name of Docker Hub search results"),
    ("*", "X-Registry-Auth", "SystemAuth", "PI", "IdentityToken of a registry login, encoded in the auth header"),
    ("VolumeInspect, VolumeUpdate, VolumeDelete", "name", "VolumeList", "PD", "Volumes[].Name"),
    ("VolumeUpdate", "version", "VolumeInspect", "PI", "ClusterVolume.Version.Index of the volume"),
    ("NetworkInspect, NetworkDelete, NetworkConnect, NetworkDisconnect", "id", "NetworkList", "PD", "[].Id (or name) of networks"),
    ("PluginInspect, PluginDelete, PluginEnable, PluginDisable, PluginUpgrade, PluginPush, PluginSet", "name", "PluginList", "PD", "[].Name of plugins"),
    ("NodeInspect, NodeDelete, NodeUpdate", "id", "NodeList", "PD", "[].ID of nodes"),
    ("NodeUpdate", "version", "NodeInspect, NodeList", "PD", "Version.Index of the node"),
    ("SwarmUpdate", "version", "SwarmInspect", "PD", "Version.Index of the swarm"),
    ("SwarmJoin", "JoinToken", "SwarmInspect", "PI", "JoinTokens.Worker / JoinTokens.Manager"),
    ("SwarmUnlock", "UnlockKey", "SwarmUnlockkey", "PD", "UnlockKey"),
    ("ServiceInspect, ServiceDelete, ServiceUpdate, ServiceLogs", "id", "ServiceList", "PD", "[].ID (or name) of services"),
    ("ServiceUpdate", "version", "ServiceInspect", "PD", "Version.Index of the service"),
    ("TaskInspect, TaskLogs", "id", "TaskList", "PD", "[].ID of tasks"),
    ("SecretInspect, SecretDelete, SecretUpdate", "id", "SecretList", "PD", "[].ID of secrets"),
    ("SecretUpdate", "version", "SecretInspect", "PD", "Version.Index of the secret"),
    ("ConfigInspect, ConfigDelete, ConfigUpdate", "id", "ConfigList", "PD", "[].ID of configs"),
    ("ConfigUpdate", "version", "ConfigInspect", "PD", "Version.Index of the config"),
]

PR = "Pull_Request_"
AZDO = [
    ("* except Repositories_Delete_Repository_From_Recycle_Bin, Repositories_Restore_Repository_From_Recycle_Bin", "repositoryId", "Repositories_List", "PD", "[].id of repositories"),
    ("Repositories_Delete_Repository_From_Recycle_Bin, Repositories_Restore_Repository_From_Recycle_Bin", "repositoryId", "Repositories_Get_Recycle_Bin_Repositories", "PD", "[].id of soft-deleted repositories"),
    ("*", "searchCriteria.repositoryId", "Repositories_List", "PD", "[].id of repositories"),
    ("*", "searchCriteria.sourceRepositoryId", "Repositories_List", "PD", "[].id of repositories"),
    ("*", "searchCriteria.sourceRefName", "Refs_List", "PD", "[].name of refs"),
    ("*", "searchCriteria.targetRefName", "Refs_List", "PD", "[].name of refs"),
    ("Pull_Requests_Create", "sourceRefName", "Refs_List", "PD", "[].name of refs (branches)"),
    ("Pull_Requests_Create", "targetRefName", "Refs_List", "PD", "[].name of refs (branches)"),
    ("Pull_Requests_Get_Pull_Request_By_Id", "pullRequestId", "Pull_Requests_Get_Pull_Requests_By_Project", "PD", "[].pullRequestId"),
    ("* except Pull_Requests_Create, Pull_Requests_Get_Pull_Request_By_Id", "pullRequestId", "Pull_Requests_Get_Pull_Requests, Pull_Requests_Get_Pull_Requests_By_Project", "PD", "[].pullRequestId of pull requests"),
    ("Pull_Requests_Update", "lastMergeSourceCommit", "Pull_Requests_Get_Pull_Request", "PD", "lastMergeSourceCommit of the pull request (needed to complete it)"),
    ("*", "iterationId", f"{PR}Iterations_List", "PD", "[].id of the pull request's iterations"),
    ("*", "labelIdOrName", f"{PR}Labels_List", "PD", "[].id / [].name of the pull request's labels"),
    (f"{PR}Reviewers_Get, {PR}Reviewers_Delete, {PR}Reviewers_Update_Pull_Request_Reviewer", "reviewerId", f"{PR}Reviewers_List", "PD", "[].id of the pull request's reviewers"),
    ("*", "statusId", f"{PR}Statuses_List", "PD", "[].id of the pull request's statuses"),
    ("*", "threadId", f"{PR}Threads_List", "PD", "[].id of the pull request's threads"),
    ("*", "commentId", f"{PR}Thread_Comments_List", "PD", "[].id of the thread's comments"),
    ("Commits_Get, Commits_Get_Changes", "commitId", f"Commits_Get_Push_Commits, {PR}Commits_Get_Pull_Request_Commits, Refs_List", "PD", "[].commitId of commits / [].objectId of refs"),
    ("Pushes_Get, Commits_Get_Push_Commits", "pushId", "Pushes_List", "PD", "[].pushId of pushes"),
    ("Refs_Update_Ref", "filter", "Refs_List", "PD", "[].name of refs (the branch to lock)"),
    ("Pushes_Create", "refUpdates", "Refs_List", "PI", "oldObjectId = [].objectId of the ref being updated"),
]

SPREE = [
    ("show-address, delete-address, update-address", "id", "addresses-list", "PD", "data[].id of addresses"),
    ("show-country", "id", "countries-list", "PD", "data[].id of countries"),
    ("show-line-item, delete-line-item, update-line-item", "id", "line-items-list", "PD", "data[].id of line items"),
    ("show-order, delete-order, update-order, advance-order, next-order, complete-order, empty-order, approve-order, cancel-order, use-store-credit-order, apply-coupon-code-order", "id", "orders-list", "PD", "data[].id of orders"),
    ("show-payment, delete-payment", "id", "payments-list", "PD", "data[].id of payments"),
    ("show-product, delete-product, update-product", "id", "products-list", "PD", "data[].id of products"),
    ("show-shipment, delete-shipment, update-shipment, add-item-shipment, remove-item-shipment, ready-shipment, ship-shipment, cancel-shipment, resume-shipment, pend-shipment", "id", "shipments-list", "PD", "data[].id of shipments"),
    ("show-state", "id", "states-list", "PD", "data[].id of states"),
    ("show-stock-item, delete-stock-item, update-stock-item", "id", "stock-items-list", "PD", "data[].id of stock items"),
    ("show-stock-location, delete-stock-location, update-stock-location", "id", "stock-locations-list", "PD", "data[].id of stock locations"),
    ("show-taxonomy, delete-taxonomy, update-taxonomy", "id", "taxonomies-list", "PD", "data[].id of taxonomies"),
    ("show-taxon, delete-taxon, update-taxon, reposition-taxon", "id", "taxons-list", "PD", "data[].id of taxons"),
    ("show-user, delete-user, update-user", "id", "users-list", "PD", "data[].id of users"),
    ("show-variant, delete-variant", "id", "variants-list", "PD", "data[].id of variants"),
    ("addresses-list", "filter[user_id_eq]", "users-list", "PD", "data[].id of users"),
    ("line-items-list", "filter[order_id_eq]", "orders-list", "PD", "data[].id of orders"),
    ("states-list", "filter[country_id_eq]", "countries-list", "PD", "data[].id of countries"),
    ("taxons-list", "filter[taxonomy_id_eq]", "taxonomies-list", "PD", "data[].id of taxonomies"),
    ("variants-list", "filter[product_id_eq]", "products-list", "PD", "data[].id of products"),
    ("create-address, update-address", "address", "users-list, countries-list, states-list", "PI", "address.user_id / country_id / state_id = data[].id"),
    ("create-line-item", "line_item", "orders-list, variants-list", "PI", "line_item.order_id / variant_id = data[].id"),
    ("update-line-item", "line_item", "variants-list", "PI", "line_item.variant_id = data[].id of variants"),
    ("create-order, update-order", "order", "users-list, addresses-list", "PI", "order.user_id / bill_address_id / ship_address_id = data[].id"),
    ("create-shipment", "shipment", "orders-list, stock-locations-list, variants-list", "PI", "shipment.order_id / stock_location_id / variant_id = data[].id"),
    ("add-item-shipment, remove-item-shipment", "shipment", "variants-list", "PI", "shipment.variant_id = data[].id of variants"),
    ("create-stock-item, update-stock-item", "stock_item", "stock-locations-list, variants-list", "PI", "stock_item.stock_location_id / variant_id = data[].id"),
    ("create-stock-location, update-stock-location", "stock_location", "countries-list, states-list", "PI", "stock_location.country_id / state_id = data[].id"),
    ("create-taxon, update-taxon", "taxon", "taxonomies-list, taxons-list", "PI", "taxon.taxonomy_id / parent_id = data[].id"),
    ("reposition-taxon", "taxon", "taxons-list", "PI", "taxon.new_parent_id = data[].id of taxons"),
    ("create-user, update-user", "user", "addresses-list", "PI", "user.bill_address_id / ship_address_id = data[].id of addresses"),
]

GOLD = {"semaphore": ("Semaphore UI", SEMAPHORE), "argo_workflows": ("Argo Workflows", ARGO),
        "docker_engine": ("Docker Engine (moby)", DOCKER), "azure_devops_git": ("Azure DevOps Git", AZDO),
        "spree_platform": ("Spree Commerce Platform API", SPREE)}


def split(s: str) -> list[str]:
    return [x.strip() for x in s.split(",") if x.strip()]


def build(key: str, provider: str, rules) -> dict:
    tools = {t["name"]: {p["name"] for p in t["parameters"]} for t in read_catalog(f"openapi/{key}.json", key).tools}
    edges, seen = [], set()
    for consumers, param, providers, kind, reason in rules:
        targets = split(providers)
        for t in targets:
            assert t in tools, (key, t)
        if consumers.startswith("*"):  # "*" or "* except A, B"
            skip = split(consumers.partition("except")[2])
            names = [n for n in tools if param in tools[n] and n not in targets and n not in skip]
        else:
            names = split(consumers)
        assert names, (key, consumers, param)
        for c in names:
            assert c in tools and param in tools[c], (key, c, param)
            for t in targets:
                if (c, t, param) in seen or c == t:
                    continue
                seen.add((c, t, param))
                edges.append({"source": c, "target": t, "parameter_name": param, "type": TYPES[kind], "reason": reason})
    order = sorted({e["source"] for e in edges})
    for e in edges:
        e["split"] = "dev" if order.index(e["source"]) % 2 == 0 else "test"
    return {"provenance": f"Written by hand for kg-tools from {provider}'s spec/tool descriptions; corpus-oa-b "
                          "(rules: make/corpus-oa-b_gold.py)",
            "catalog_file": f"openapi/{key}.json", "edges": edges}


if __name__ == "__main__":
    for key, (provider, rules) in GOLD.items():
        gold = build(key, provider, rules)
        with open(f"gold/{key}.json", "w", encoding="utf-8") as f:
            f.write('{"provenance": ' + json.dumps(gold["provenance"]) + ', "catalog_file": ' + json.dumps(gold["catalog_file"])
                    + ', "edges": [\n' + ",\n".join(json.dumps(e, ensure_ascii=False) for e in gold["edges"]) + "\n]}\n")
        print(key, len(gold["edges"]), "edges,", len({e["source"] for e in gold["edges"]}), "consumers")
