export namespace version {
	
	export class Info {
	    version: string;
	    commit: string;
	    wails: string;
	    go: string;
	    os: string;
	    arch: string;
	
	    static createFrom(source: any = {}) {
	        return new Info(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.commit = source["commit"];
	        this.wails = source["wails"];
	        this.go = source["go"];
	        this.os = source["os"];
	        this.arch = source["arch"];
	    }
	}

}

export namespace wire {
	
	export class AppReadyPayload {
	    startupMs: number;
	
	    static createFrom(source: any = {}) {
	        return new AppReadyPayload(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.startupMs = source["startupMs"];
	    }
	}
	export class AppliedFile {
	    path: string;
	    op: string;
	    decisions: string[];
	    applied: number;
	    total: number;
	    edited: boolean;
	    written: boolean;
	
	    static createFrom(source: any = {}) {
	        return new AppliedFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.op = source["op"];
	        this.decisions = source["decisions"];
	        this.applied = source["applied"];
	        this.total = source["total"];
	        this.edited = source["edited"];
	        this.written = source["written"];
	    }
	}
	export class ElicitOption {
	    value: string;
	    title?: string;
	
	    static createFrom(source: any = {}) {
	        return new ElicitOption(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.value = source["value"];
	        this.title = source["title"];
	    }
	}
	export class ElicitField {
	    name: string;
	    title?: string;
	    description?: string;
	    type: string;
	    required?: boolean;
	    format?: string;
	    minLength?: number;
	    maxLength?: number;
	    minimum?: number;
	    maximum?: number;
	    options?: ElicitOption[];
	    minItems?: number;
	    maxItems?: number;
	    default?: unknown;
	
	    static createFrom(source: any = {}) {
	        return new ElicitField(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.type = source["type"];
	        this.required = source["required"];
	        this.format = source["format"];
	        this.minLength = source["minLength"];
	        this.maxLength = source["maxLength"];
	        this.minimum = source["minimum"];
	        this.maximum = source["maximum"];
	        this.options = this.convertValues(source["options"], ElicitOption);
	        this.minItems = source["minItems"];
	        this.maxItems = source["maxItems"];
	        this.default = source["default"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Elicitation {
	    server: string;
	    message: string;
	    fields: ElicitField[];
	    action?: string;
	    content?: Record<string, unknown>;
	    why?: string;
	
	    static createFrom(source: any = {}) {
	        return new Elicitation(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = source["server"];
	        this.message = source["message"];
	        this.fields = this.convertValues(source["fields"], ElicitField);
	        this.action = source["action"];
	        this.content = source["content"];
	        this.why = source["why"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Approval {
	    id: string;
	    kind: string;
	    toolCallId: string;
	    tool: string;
	    paths?: string[];
	    command?: string;
	    cwd?: string;
	    timeoutSeconds?: number;
	    server?: string;
	    mcpTool?: string;
	    arguments?: string;
	    host?: string;
	    port?: number;
	    reason?: string;
	    noSandbox?: string;
	    background?: boolean;
	    alwaysRules?: string[];
	    askRule?: string;
	    noAlways?: string;
	    elicitation?: Elicitation;
	
	    static createFrom(source: any = {}) {
	        return new Approval(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.kind = source["kind"];
	        this.toolCallId = source["toolCallId"];
	        this.tool = source["tool"];
	        this.paths = source["paths"];
	        this.command = source["command"];
	        this.cwd = source["cwd"];
	        this.timeoutSeconds = source["timeoutSeconds"];
	        this.server = source["server"];
	        this.mcpTool = source["mcpTool"];
	        this.arguments = source["arguments"];
	        this.host = source["host"];
	        this.port = source["port"];
	        this.reason = source["reason"];
	        this.noSandbox = source["noSandbox"];
	        this.background = source["background"];
	        this.alwaysRules = source["alwaysRules"];
	        this.askRule = source["askRule"];
	        this.noAlways = source["noAlways"];
	        this.elicitation = this.convertValues(source["elicitation"], Elicitation);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Source {
	    title: string;
	    url: string;
	    cited?: string;
	
	    static createFrom(source: any = {}) {
	        return new Source(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.title = source["title"];
	        this.url = source["url"];
	        this.cited = source["cited"];
	    }
	}
	export class Block {
	    type: string;
	    text?: string;
	    command?: string;
	    id?: string;
	    name?: string;
	    input?: unknown;
	    toolUseId?: string;
	    isError?: boolean;
	    hash?: string;
	    mediaType?: string;
	    images?: Block[];
	    sources?: Source[];
	
	    static createFrom(source: any = {}) {
	        return new Block(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.type = source["type"];
	        this.text = source["text"];
	        this.command = source["command"];
	        this.id = source["id"];
	        this.name = source["name"];
	        this.input = source["input"];
	        this.toolUseId = source["toolUseId"];
	        this.isError = source["isError"];
	        this.hash = source["hash"];
	        this.mediaType = source["mediaType"];
	        this.images = this.convertValues(source["images"], Block);
	        this.sources = this.convertValues(source["sources"], Source);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class FileDecision {
	    path: string;
	    hunks: boolean[];
	    editedText?: string;
	
	    static createFrom(source: any = {}) {
	        return new FileDecision(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.hunks = source["hunks"];
	        this.editedText = source["editedText"];
	    }
	}
	export class BranchMerge {
	    files: FileDecision[];
	    force: boolean;
	    version?: string;
	
	    static createFrom(source: any = {}) {
	        return new BranchMerge(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.files = this.convertValues(source["files"], FileDecision);
	        this.force = source["force"];
	        this.version = source["version"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class DiffLine {
	    kind: string;
	    text: string;
	    oldNo?: number;
	    newNo?: number;
	
	    static createFrom(source: any = {}) {
	        return new DiffLine(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.text = source["text"];
	        this.oldNo = source["oldNo"];
	        this.newNo = source["newNo"];
	    }
	}
	export class Hunk {
	    index: number;
	    oldStart: number;
	    oldLines: number;
	    newStart: number;
	    newLines: number;
	    lines: DiffLine[];
	    note?: string;
	
	    static createFrom(source: any = {}) {
	        return new Hunk(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.index = source["index"];
	        this.oldStart = source["oldStart"];
	        this.oldLines = source["oldLines"];
	        this.newStart = source["newStart"];
	        this.newLines = source["newLines"];
	        this.lines = this.convertValues(source["lines"], DiffLine);
	        this.note = source["note"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class FileChange {
	    path: string;
	    isNew: boolean;
	    emptied: boolean;
	    hunks: Hunk[];
	
	    static createFrom(source: any = {}) {
	        return new FileChange(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.isNew = source["isNew"];
	        this.emptied = source["emptied"];
	        this.hunks = this.convertValues(source["hunks"], Hunk);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class BranchView {
	    sessionId: number;
	    branch: string;
	    base: string;
	    worktree: string;
	    files: FileChange[];
	    version: string;
	
	    static createFrom(source: any = {}) {
	        return new BranchView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.branch = source["branch"];
	        this.base = source["base"];
	        this.worktree = source["worktree"];
	        this.files = this.convertValues(source["files"], FileChange);
	        this.version = source["version"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Comment {
	    path: string;
	    line: number;
	    endLine?: number;
	    lineText: string;
	    text: string;
	    origin: string;
	    originRef?: string;
	    state: string;
	
	    static createFrom(source: any = {}) {
	        return new Comment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.line = source["line"];
	        this.endLine = source["endLine"];
	        this.lineText = source["lineText"];
	        this.text = source["text"];
	        this.origin = source["origin"];
	        this.originRef = source["originRef"];
	        this.state = source["state"];
	    }
	}
	export class ChangeDecision {
	    files: FileDecision[];
	    feedback: string;
	    alwaysAllow: boolean;
	    comments?: Comment[];
	
	    static createFrom(source: any = {}) {
	        return new ChangeDecision(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.files = this.convertValues(source["files"], FileDecision);
	        this.feedback = source["feedback"];
	        this.alwaysAllow = source["alwaysAllow"];
	        this.comments = this.convertValues(source["comments"], Comment);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class FileDiff {
	    path: string;
	    oldExists: boolean;
	    newExists: boolean;
	    oldText: string;
	    newText: string;
	    binary: boolean;
	    missing?: string;
	    hunks: Hunk[];
	
	    static createFrom(source: any = {}) {
	        return new FileDiff(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.oldExists = source["oldExists"];
	        this.newExists = source["newExists"];
	        this.oldText = source["oldText"];
	        this.newText = source["newText"];
	        this.binary = source["binary"];
	        this.missing = source["missing"];
	        this.hunks = this.convertValues(source["hunks"], Hunk);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ChangeSummary {
	    checkpointId?: number;
	    applied: number;
	    total: number;
	    edited: boolean;
	    files: AppliedFile[];
	    undone: boolean;
	    recovery?: string;
	
	    static createFrom(source: any = {}) {
	        return new ChangeSummary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.checkpointId = source["checkpointId"];
	        this.applied = source["applied"];
	        this.total = source["total"];
	        this.edited = source["edited"];
	        this.files = this.convertValues(source["files"], AppliedFile);
	        this.undone = source["undone"];
	        this.recovery = source["recovery"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ChangeDetail {
	    summary: ChangeSummary;
	    proposed: FileChange[];
	    applied: FileDiff[];
	
	    static createFrom(source: any = {}) {
	        return new ChangeDetail(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.summary = this.convertValues(source["summary"], ChangeSummary);
	        this.proposed = this.convertValues(source["proposed"], FileChange);
	        this.applied = this.convertValues(source["applied"], FileDiff);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class ChangeView {
	    approvalId: string;
	    tool: string;
	    files: FileChange[];
	
	    static createFrom(source: any = {}) {
	        return new ChangeView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.approvalId = source["approvalId"];
	        this.tool = source["tool"];
	        this.files = this.convertValues(source["files"], FileChange);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class FileEffect {
	    path: string;
	    op: string;
	    kept: boolean;
	    why?: string;
	    runsCode?: string;
	    listed?: boolean;
	    folder?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new FileEffect(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.op = source["op"];
	        this.kept = source["kept"];
	        this.why = source["why"];
	        this.runsCode = source["runsCode"];
	        this.listed = source["listed"];
	        this.folder = source["folder"];
	    }
	}
	export class Checkpoint {
	    id: number;
	    kind: string;
	    toolCallId?: string;
	    messageId: number;
	    label: string;
	    note?: string;
	    omitted?: number;
	    files: FileEffect[];
	    undone: boolean;
	    createdAt: number;
	
	    static createFrom(source: any = {}) {
	        return new Checkpoint(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.kind = source["kind"];
	        this.toolCallId = source["toolCallId"];
	        this.messageId = source["messageId"];
	        this.label = source["label"];
	        this.note = source["note"];
	        this.omitted = source["omitted"];
	        this.files = this.convertValues(source["files"], FileEffect);
	        this.undone = source["undone"];
	        this.createdAt = source["createdAt"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class CommandDecision {
	    approve: boolean;
	    feedback: string;
	    alwaysAllow: boolean;
	
	    static createFrom(source: any = {}) {
	        return new CommandDecision(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.approve = source["approve"];
	        this.feedback = source["feedback"];
	        this.alwaysAllow = source["alwaysAllow"];
	    }
	}
	export class CommandEffects {
	    checkpointId: number;
	    files: FileEffect[];
	    omitted?: number;
	    note?: string;
	    undone: boolean;
	
	    static createFrom(source: any = {}) {
	        return new CommandEffects(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.checkpointId = source["checkpointId"];
	        this.files = this.convertValues(source["files"], FileEffect);
	        this.omitted = source["omitted"];
	        this.note = source["note"];
	        this.undone = source["undone"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class CommitResult {
	    commit: string;
	    files: string[];
	
	    static createFrom(source: any = {}) {
	        return new CommitResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.commit = source["commit"];
	        this.files = source["files"];
	    }
	}
	export class Conflict {
	    path: string;
	    mine: FileDiff;
	    checkpoint: FileDiff;
	
	    static createFrom(source: any = {}) {
	        return new Conflict(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.mine = this.convertValues(source["mine"], FileDiff);
	        this.checkpoint = this.convertValues(source["checkpoint"], FileDiff);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Diagnostic {
	    path: string;
	    line: number;
	    col: number;
	    severity: string;
	    message: string;
	    source?: string;
	
	    static createFrom(source: any = {}) {
	        return new Diagnostic(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.line = source["line"];
	        this.col = source["col"];
	        this.severity = source["severity"];
	        this.message = source["message"];
	        this.source = source["source"];
	    }
	}
	export class Diagnostics {
	    errors: number;
	    warnings: number;
	    items: Diagnostic[];
	    note?: string;
	
	    static createFrom(source: any = {}) {
	        return new Diagnostics(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.errors = source["errors"];
	        this.warnings = source["warnings"];
	        this.items = this.convertValues(source["items"], Diagnostic);
	        this.note = source["note"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class TreeEntry {
	    name: string;
	    dir?: boolean;
	    link?: boolean;
	    changed?: boolean;
	    errors?: number;
	
	    static createFrom(source: any = {}) {
	        return new TreeEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.dir = source["dir"];
	        this.link = source["link"];
	        this.changed = source["changed"];
	        this.errors = source["errors"];
	    }
	}
	export class DirPage {
	    dir: string;
	    version: number;
	    total: number;
	    offset: number;
	    entries: TreeEntry[];
	
	    static createFrom(source: any = {}) {
	        return new DirPage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.dir = source["dir"];
	        this.version = source["version"];
	        this.total = source["total"];
	        this.offset = source["offset"];
	        this.entries = this.convertValues(source["entries"], TreeEntry);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class DirPageQuery {
	    dir: string;
	    locale: string;
	    offset: number;
	    limit: number;
	    version: number;
	
	    static createFrom(source: any = {}) {
	        return new DirPageQuery(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.dir = source["dir"];
	        this.locale = source["locale"];
	        this.offset = source["offset"];
	        this.limit = source["limit"];
	        this.version = source["version"];
	    }
	}
	
	
	
	export class ElicitationDecision {
	    action: string;
	    content?: Record<string, unknown>;
	    why?: string;
	
	    static createFrom(source: any = {}) {
	        return new ElicitationDecision(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.action = source["action"];
	        this.content = source["content"];
	        this.why = source["why"];
	    }
	}
	export class ElsewhereRun {
	    pid: number;
	    state?: string;
	    waiting?: Approval[];
	
	    static createFrom(source: any = {}) {
	        return new ElsewhereRun(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.pid = source["pid"];
	        this.state = source["state"];
	        this.waiting = this.convertValues(source["waiting"], Approval);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	
	
	export class FilePreview {
	    path: string;
	    text: string;
	    binary: boolean;
	    truncated: boolean;
	    size: number;
	
	    static createFrom(source: any = {}) {
	        return new FilePreview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.text = source["text"];
	        this.binary = source["binary"];
	        this.truncated = source["truncated"];
	        this.size = source["size"];
	    }
	}
	export class GitStatus {
	    repo: boolean;
	    branch: string;
	    uncommitted: number;
	    why?: string;
	
	    static createFrom(source: any = {}) {
	        return new GitStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.repo = source["repo"];
	        this.branch = source["branch"];
	        this.uncommitted = source["uncommitted"];
	        this.why = source["why"];
	    }
	}
	export class HookRun {
	    event: string;
	    hook: string;
	    file: string;
	    decision: string;
	    ms: number;
	    exitCode: number;
	    timedOut?: boolean;
	    message?: string;
	    stdout?: string;
	    stderr?: string;
	
	    static createFrom(source: any = {}) {
	        return new HookRun(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.event = source["event"];
	        this.hook = source["hook"];
	        this.file = source["file"];
	        this.decision = source["decision"];
	        this.ms = source["ms"];
	        this.exitCode = source["exitCode"];
	        this.timedOut = source["timedOut"];
	        this.message = source["message"];
	        this.stdout = source["stdout"];
	        this.stderr = source["stderr"];
	    }
	}
	export class HookToolName {
	    pilot: string;
	    claude: string;
	
	    static createFrom(source: any = {}) {
	        return new HookToolName(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.pilot = source["pilot"];
	        this.claude = source["claude"];
	    }
	}
	
	export class IgnoredRule {
	    entry: string;
	    effect: string;
	    file: string;
	    scope: string;
	    reason: string;
	
	    static createFrom(source: any = {}) {
	        return new IgnoredRule(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.entry = source["entry"];
	        this.effect = source["effect"];
	        this.file = source["file"];
	        this.scope = source["scope"];
	        this.reason = source["reason"];
	    }
	}
	export class ImageInput {
	    mediaType: string;
	    data: string;
	
	    static createFrom(source: any = {}) {
	        return new ImageInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.mediaType = source["mediaType"];
	        this.data = source["data"];
	    }
	}
	export class ImageView {
	    hash: string;
	    mediaType: string;
	    dataUrl: string;
	
	    static createFrom(source: any = {}) {
	        return new ImageView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.hash = source["hash"];
	        this.mediaType = source["mediaType"];
	        this.dataUrl = source["dataUrl"];
	    }
	}
	export class ImportedRule {
	    tool: string;
	    pattern: string;
	    effect: string;
	    entry: string;
	    file: string;
	    scope: string;
	    applies: boolean;
	    notApplied: string;
	
	    static createFrom(source: any = {}) {
	        return new ImportedRule(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tool = source["tool"];
	        this.pattern = source["pattern"];
	        this.effect = source["effect"];
	        this.entry = source["entry"];
	        this.file = source["file"];
	        this.scope = source["scope"];
	        this.applies = source["applies"];
	        this.notApplied = source["notApplied"];
	    }
	}
	export class ImportedRules {
	    rules: ImportedRule[];
	    ignored: IgnoredRule[];
	
	    static createFrom(source: any = {}) {
	        return new ImportedRules(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.rules = this.convertValues(source["rules"], ImportedRule);
	        this.ignored = this.convertValues(source["ignored"], IgnoredRule);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class InboxItem {
	    approval: Approval;
	    sessionId: number;
	    title: string;
	    branch?: string;
	    projectId: number;
	    project: string;
	    projectPath: string;
	    reason: string;
	    since: number;
	
	    static createFrom(source: any = {}) {
	        return new InboxItem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.approval = this.convertValues(source["approval"], Approval);
	        this.sessionId = source["sessionId"];
	        this.title = source["title"];
	        this.branch = source["branch"];
	        this.projectId = source["projectId"];
	        this.project = source["project"];
	        this.projectPath = source["projectPath"];
	        this.reason = source["reason"];
	        this.since = source["since"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Job {
	    sessionId: number;
	    id: string;
	    command: string;
	    state: string;
	    exitCode?: number;
	    toolCallId: string;
	    sandboxed: boolean;
	    startedAt: number;
	    endedAt?: number;
	    bytes: number;
	
	    static createFrom(source: any = {}) {
	        return new Job(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.id = source["id"];
	        this.command = source["command"];
	        this.state = source["state"];
	        this.exitCode = source["exitCode"];
	        this.toolCallId = source["toolCallId"];
	        this.sandboxed = source["sandboxed"];
	        this.startedAt = source["startedAt"];
	        this.endedAt = source["endedAt"];
	        this.bytes = source["bytes"];
	    }
	}
	export class JobOutput {
	    job: Job;
	    text: string;
	    start: number;
	    cut: boolean;
	
	    static createFrom(source: any = {}) {
	        return new JobOutput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.job = this.convertValues(source["job"], Job);
	        this.text = source["text"];
	        this.start = source["start"];
	        this.cut = source["cut"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class LanguageServer {
	    name: string;
	    languages: string[];
	    command: string[];
	    path?: string;
	    state: string;
	    version?: string;
	    lastError?: string;
	    install?: string;
	    user?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new LanguageServer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.languages = source["languages"];
	        this.command = source["command"];
	        this.path = source["path"];
	        this.state = source["state"];
	        this.version = source["version"];
	        this.lastError = source["lastError"];
	        this.install = source["install"];
	        this.user = source["user"];
	    }
	}
	export class LanguageServerConfig {
	    name: string;
	    command: string[];
	    patterns: string[];
	
	    static createFrom(source: any = {}) {
	        return new LanguageServerConfig(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.command = source["command"];
	        this.patterns = source["patterns"];
	    }
	}
	export class LedgerFile {
	    path: string;
	    kind: string;
	    checkpoints: number[];
	    revertable: boolean;
	    runsCode?: string;
	    listed?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new LedgerFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.kind = source["kind"];
	        this.checkpoints = source["checkpoints"];
	        this.revertable = source["revertable"];
	        this.runsCode = source["runsCode"];
	        this.listed = source["listed"];
	    }
	}
	export class Ledger {
	    sessionId: number;
	    files: LedgerFile[];
	    checkpoints: Checkpoint[];
	
	    static createFrom(source: any = {}) {
	        return new Ledger(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.files = this.convertValues(source["files"], LedgerFile);
	        this.checkpoints = this.convertValues(source["checkpoints"], Checkpoint);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class LineComment {
	    id: number;
	    sessionId: number;
	    path: string;
	    line: number;
	    endLine?: number;
	    lineText: string;
	    text: string;
	    origin: string;
	    originRef?: string;
	    state: string;
	
	    static createFrom(source: any = {}) {
	        return new LineComment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.sessionId = source["sessionId"];
	        this.path = source["path"];
	        this.line = source["line"];
	        this.endLine = source["endLine"];
	        this.lineText = source["lineText"];
	        this.text = source["text"];
	        this.origin = source["origin"];
	        this.originRef = source["originRef"];
	        this.state = source["state"];
	    }
	}
	export class MCPResource {
	    server: string;
	    uri: string;
	    name: string;
	    description: string;
	    mimeType: string;
	
	    static createFrom(source: any = {}) {
	        return new MCPResource(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = source["server"];
	        this.uri = source["uri"];
	        this.name = source["name"];
	        this.description = source["description"];
	        this.mimeType = source["mimeType"];
	    }
	}
	export class MCPTool {
	    name: string;
	    tool: string;
	    description: string;
	
	    static createFrom(source: any = {}) {
	        return new MCPTool(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.tool = source["tool"];
	        this.description = source["description"];
	    }
	}
	export class MCPServer {
	    name: string;
	    scope: string;
	    transport: string;
	    display: string;
	    state: string;
	    error: string;
	    tools: MCPTool[];
	    stderr: string[];
	    restarts: number;
	    command: string;
	    args: string[] | null;
	    env: Record<string, string> | null;
	    cwd: string;
	    url: string;
	    headers: Record<string, string> | null;
	    disabled: boolean;
	    needsSignIn: boolean;
	    signIn: string;
	    signInWhy: string;
	
	    static createFrom(source: any = {}) {
	        return new MCPServer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.scope = source["scope"];
	        this.transport = source["transport"];
	        this.display = source["display"];
	        this.state = source["state"];
	        this.error = source["error"];
	        this.tools = this.convertValues(source["tools"], MCPTool);
	        this.stderr = source["stderr"];
	        this.restarts = source["restarts"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.env = source["env"];
	        this.cwd = source["cwd"];
	        this.url = source["url"];
	        this.headers = source["headers"];
	        this.disabled = source["disabled"];
	        this.needsSignIn = source["needsSignIn"];
	        this.signIn = source["signIn"];
	        this.signInWhy = source["signInWhy"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class MCPServerInput {
	    scope: string;
	    name: string;
	    type: string;
	    command: string;
	    args: string[];
	    env: Record<string, string>;
	    cwd: string;
	    url: string;
	    headers: Record<string, string>;
	
	    static createFrom(source: any = {}) {
	        return new MCPServerInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = source["scope"];
	        this.name = source["name"];
	        this.type = source["type"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.env = source["env"];
	        this.cwd = source["cwd"];
	        this.url = source["url"];
	        this.headers = source["headers"];
	    }
	}
	export class MCPServers {
	    project: string;
	    configError: string;
	    servers: MCPServer[];
	
	    static createFrom(source: any = {}) {
	        return new MCPServers(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.project = source["project"];
	        this.configError = source["configError"];
	        this.servers = this.convertValues(source["servers"], MCPServer);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class MCPSignInStarted {
	    server: string;
	    address: string;
	
	    static createFrom(source: any = {}) {
	        return new MCPSignInStarted(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = source["server"];
	        this.address = source["address"];
	    }
	}
	
	export class TrustSection {
	    kind: string;
	    path: string;
	    scope: string;
	    hash: string;
	    items: string[];
	    changed: boolean;
	
	    static createFrom(source: any = {}) {
	        return new TrustSection(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.path = source["path"];
	        this.scope = source["scope"];
	        this.hash = source["hash"];
	        this.items = source["items"];
	        this.changed = source["changed"];
	    }
	}
	export class MCPTrustServer {
	    name: string;
	    display: string;
	
	    static createFrom(source: any = {}) {
	        return new MCPTrustServer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.display = source["display"];
	    }
	}
	export class MCPTrustPrompt {
	    needed: boolean;
	    project: string;
	    path: string;
	    hash: string;
	    servers: MCPTrustServer[];
	    changed: boolean;
	    sections: TrustSection[];
	    token: string;
	
	    static createFrom(source: any = {}) {
	        return new MCPTrustPrompt(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.needed = source["needed"];
	        this.project = source["project"];
	        this.path = source["path"];
	        this.hash = source["hash"];
	        this.servers = this.convertValues(source["servers"], MCPTrustServer);
	        this.changed = source["changed"];
	        this.sections = this.convertValues(source["sections"], TrustSection);
	        this.token = source["token"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class MergeConflict {
	    path: string;
	    why: string;
	
	    static createFrom(source: any = {}) {
	        return new MergeConflict(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.why = source["why"];
	    }
	}
	export class MergeResult {
	    merged: string[];
	    conflicts: MergeConflict[];
	    sessionId: number;
	
	    static createFrom(source: any = {}) {
	        return new MergeResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.merged = source["merged"];
	        this.conflicts = this.convertValues(source["conflicts"], MergeConflict);
	        this.sessionId = source["sessionId"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Message {
	    id: number;
	    role: string;
	    blocks: Block[];
	    state: string;
	    createdAt: number;
	
	    static createFrom(source: any = {}) {
	        return new Message(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.role = source["role"];
	        this.blocks = this.convertValues(source["blocks"], Block);
	        this.state = source["state"];
	        this.createdAt = source["createdAt"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SandboxInfo {
	    sandboxed: boolean;
	    outside?: boolean;
	    reason?: string;
	    unavailable?: string;
	    blocked?: string[];
	
	    static createFrom(source: any = {}) {
	        return new SandboxInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sandboxed = source["sandboxed"];
	        this.outside = source["outside"];
	        this.reason = source["reason"];
	        this.unavailable = source["unavailable"];
	        this.blocked = source["blocked"];
	    }
	}
	export class ToolCall {
	    id: string;
	    messageId: number;
	    parentId?: string;
	    name: string;
	    label: string;
	    input: unknown;
	    status: string;
	    output: string;
	    isError: boolean;
	    approvalId?: string;
	    startedAt: number;
	    finishedAt?: number;
	    refusedBy?: string;
	    refusedRule?: string;
	    change?: ChangeSummary;
	    effects?: CommandEffects;
	    sandbox?: SandboxInfo;
	    hooks?: HookRun[];
	    diagnostics?: Diagnostics;
	    jobId?: string;
	    instructions?: string[];
	    needsSignIn?: string;
	    elicitations?: Elicitation[];
	
	    static createFrom(source: any = {}) {
	        return new ToolCall(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.messageId = source["messageId"];
	        this.parentId = source["parentId"];
	        this.name = source["name"];
	        this.label = source["label"];
	        this.input = source["input"];
	        this.status = source["status"];
	        this.output = source["output"];
	        this.isError = source["isError"];
	        this.approvalId = source["approvalId"];
	        this.startedAt = source["startedAt"];
	        this.finishedAt = source["finishedAt"];
	        this.refusedBy = source["refusedBy"];
	        this.refusedRule = source["refusedRule"];
	        this.change = this.convertValues(source["change"], ChangeSummary);
	        this.effects = this.convertValues(source["effects"], CommandEffects);
	        this.sandbox = this.convertValues(source["sandbox"], SandboxInfo);
	        this.hooks = this.convertValues(source["hooks"], HookRun);
	        this.diagnostics = this.convertValues(source["diagnostics"], Diagnostics);
	        this.jobId = source["jobId"];
	        this.instructions = source["instructions"];
	        this.needsSignIn = source["needsSignIn"];
	        this.elicitations = this.convertValues(source["elicitations"], Elicitation);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class MessagePage {
	    messages: Message[];
	    toolCalls: ToolCall[];
	    hasOlder: boolean;
	
	    static createFrom(source: any = {}) {
	        return new MessagePage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.messages = this.convertValues(source["messages"], Message);
	        this.toolCalls = this.convertValues(source["toolCalls"], ToolCall);
	        this.hasOlder = source["hasOlder"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ModelPrices {
	    input: number;
	    output: number;
	    cacheRead?: number;
	    cacheWrite?: number;
	
	    static createFrom(source: any = {}) {
	        return new ModelPrices(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.input = source["input"];
	        this.output = source["output"];
	        this.cacheRead = source["cacheRead"];
	        this.cacheWrite = source["cacheWrite"];
	    }
	}
	export class ModelFacts {
	    id: string;
	    window: number;
	    windowSource: string;
	    maxOutput: number;
	    maxOutputSource: string;
	    prices?: ModelPrices;
	    pricesSource: string;
	    loaded?: number;
	
	    static createFrom(source: any = {}) {
	        return new ModelFacts(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.window = source["window"];
	        this.windowSource = source["windowSource"];
	        this.maxOutput = source["maxOutput"];
	        this.maxOutputSource = source["maxOutputSource"];
	        this.prices = this.convertValues(source["prices"], ModelPrices);
	        this.pricesSource = source["pricesSource"];
	        this.loaded = source["loaded"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ModelList {
	    provider: string;
	    baseUrl: string;
	    models: string[];
	    facts: ModelFacts[];
	
	    static createFrom(source: any = {}) {
	        return new ModelList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.baseUrl = source["baseUrl"];
	        this.models = source["models"];
	        this.facts = this.convertValues(source["facts"], ModelFacts);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ModelOverride {
	    id: string;
	    window: number;
	    maxOutput: number;
	    prices?: ModelPrices;
	
	    static createFrom(source: any = {}) {
	        return new ModelOverride(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.window = source["window"];
	        this.maxOutput = source["maxOutput"];
	        this.prices = this.convertValues(source["prices"], ModelPrices);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Preset {
	    id: string;
	    name: string;
	    provider: string;
	    baseUrl: string;
	    needsKey: boolean;
	    model?: string;
	    local: boolean;
	    keyEnv?: string;
	    keySource?: string;
	    keyHint?: string;
	    savedBaseUrl?: string;
	
	    static createFrom(source: any = {}) {
	        return new Preset(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.provider = source["provider"];
	        this.baseUrl = source["baseUrl"];
	        this.needsKey = source["needsKey"];
	        this.model = source["model"];
	        this.local = source["local"];
	        this.keyEnv = source["keyEnv"];
	        this.keySource = source["keySource"];
	        this.keyHint = source["keyHint"];
	        this.savedBaseUrl = source["savedBaseUrl"];
	    }
	}
	export class Project {
	    id: number;
	    path: string;
	    name: string;
	    lastOpened: number;
	
	    static createFrom(source: any = {}) {
	        return new Project(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.path = source["path"];
	        this.name = source["name"];
	        this.lastOpened = source["lastOpened"];
	    }
	}
	export class RememberFiles {
	    project: string;
	    user: string;
	
	    static createFrom(source: any = {}) {
	        return new RememberFiles(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.project = source["project"];
	        this.user = source["user"];
	    }
	}
	export class RestoreInput {
	    resolutions: Record<string, string>;
	
	    static createFrom(source: any = {}) {
	        return new RestoreInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.resolutions = source["resolutions"];
	    }
	}
	export class RestoreResult {
	    done: boolean;
	    conflicts: Conflict[];
	    restored: FileEffect[];
	    kept: string[];
	    missing: FileEffect[];
	    notKept?: FileEffect[];
	    checkpointId: number;
	    sessionId: number;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new RestoreResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.done = source["done"];
	        this.conflicts = this.convertValues(source["conflicts"], Conflict);
	        this.restored = this.convertValues(source["restored"], FileEffect);
	        this.kept = source["kept"];
	        this.missing = this.convertValues(source["missing"], FileEffect);
	        this.notKept = this.convertValues(source["notKept"], FileEffect);
	        this.checkpointId = source["checkpointId"];
	        this.sessionId = source["sessionId"];
	        this.message = source["message"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ReviewFinding {
	    id: number;
	    sessionId: number;
	    path: string;
	    line: number;
	    lineText: string;
	    text: string;
	    state: string;
	
	    static createFrom(source: any = {}) {
	        return new ReviewFinding(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.sessionId = source["sessionId"];
	        this.path = source["path"];
	        this.line = source["line"];
	        this.lineText = source["lineText"];
	        this.text = source["text"];
	        this.state = source["state"];
	    }
	}
	export class ReviewResult {
	    sessionId: number;
	    scope: string;
	    findings: ReviewFinding[];
	    notes: string[];
	
	    static createFrom(source: any = {}) {
	        return new ReviewResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.scope = source["scope"];
	        this.findings = this.convertValues(source["findings"], ReviewFinding);
	        this.notes = source["notes"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Rule {
	    id: number;
	    tool: string;
	    pattern: string;
	    effect: string;
	    invalid: string;
	
	    static createFrom(source: any = {}) {
	        return new Rule(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.tool = source["tool"];
	        this.pattern = source["pattern"];
	        this.effect = source["effect"];
	        this.invalid = source["invalid"];
	    }
	}
	
	export class SandboxStatus {
	    ready: boolean;
	    why?: string;
	    bwrap?: string;
	    bwrapVersion?: string;
	    userNamespaces: string;
	    landlockAbi: number;
	    hidden: string[];
	    sockets: string[];
	
	    static createFrom(source: any = {}) {
	        return new SandboxStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ready = source["ready"];
	        this.why = source["why"];
	        this.bwrap = source["bwrap"];
	        this.bwrapVersion = source["bwrapVersion"];
	        this.userNamespaces = source["userNamespaces"];
	        this.landlockAbi = source["landlockAbi"];
	        this.hidden = source["hidden"];
	        this.sockets = source["sockets"];
	    }
	}
	export class SearchHit {
	    sessionId: number;
	    sessionTitle: string;
	    messageId: number;
	    kind: string;
	    snippet: string;
	
	    static createFrom(source: any = {}) {
	        return new SearchHit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.sessionTitle = source["sessionTitle"];
	        this.messageId = source["messageId"];
	        this.kind = source["kind"];
	        this.snippet = source["snippet"];
	    }
	}
	export class TodoItem {
	    content: string;
	    status: string;
	
	    static createFrom(source: any = {}) {
	        return new TodoItem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.content = source["content"];
	        this.status = source["status"];
	    }
	}
	export class Usage {
	    inputTokens: number;
	    outputTokens: number;
	    cacheReadTokens: number;
	    cacheWriteTokens: number;
	    costUsd: number;
	    costKnown: boolean;
	    contextTokens: number;
	    contextWindow: number;
	    contextWindowSource: string;
	
	    static createFrom(source: any = {}) {
	        return new Usage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.inputTokens = source["inputTokens"];
	        this.outputTokens = source["outputTokens"];
	        this.cacheReadTokens = source["cacheReadTokens"];
	        this.cacheWriteTokens = source["cacheWriteTokens"];
	        this.costUsd = source["costUsd"];
	        this.costKnown = source["costKnown"];
	        this.contextTokens = source["contextTokens"];
	        this.contextWindow = source["contextWindow"];
	        this.contextWindowSource = source["contextWindowSource"];
	    }
	}
	export class SessionSummary {
	    id: number;
	    projectId: number;
	    title: string;
	    provider: string;
	    model: string;
	    createdAt: number;
	    updatedAt: number;
	    tokens: number;
	    costUsd: number;
	    state: string;
	    approvalMode: string;
	    branch?: string;
	    worktree?: string;
	    worktreeDiscarded?: boolean;
	    elsewhere?: ElsewhereRun;
	
	    static createFrom(source: any = {}) {
	        return new SessionSummary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.projectId = source["projectId"];
	        this.title = source["title"];
	        this.provider = source["provider"];
	        this.model = source["model"];
	        this.createdAt = source["createdAt"];
	        this.updatedAt = source["updatedAt"];
	        this.tokens = source["tokens"];
	        this.costUsd = source["costUsd"];
	        this.state = source["state"];
	        this.approvalMode = source["approvalMode"];
	        this.branch = source["branch"];
	        this.worktree = source["worktree"];
	        this.worktreeDiscarded = source["worktreeDiscarded"];
	        this.elsewhere = this.convertValues(source["elsewhere"], ElsewhereRun);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SessionDetail {
	    seq: number;
	    session: SessionSummary;
	    messages: Message[];
	    toolCalls: ToolCall[];
	    pending: Approval[];
	    usage: Usage;
	    state: string;
	    todos: TodoItem[];
	    hasOlder: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SessionDetail(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.seq = source["seq"];
	        this.session = this.convertValues(source["session"], SessionSummary);
	        this.messages = this.convertValues(source["messages"], Message);
	        this.toolCalls = this.convertValues(source["toolCalls"], ToolCall);
	        this.pending = this.convertValues(source["pending"], Approval);
	        this.usage = this.convertValues(source["usage"], Usage);
	        this.state = source["state"];
	        this.todos = this.convertValues(source["todos"], TodoItem);
	        this.hasOlder = source["hasOlder"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class SettingsInput {
	    provider: string;
	    model: string;
	    baseUrl: string;
	    apiKey: string;
	    clearKey: boolean;
	    approvalMode: string;
	    thinkingBudget: number;
	    budgetTokens: number;
	    budgetUsd: number;
	    checkpointRetentionMb: number;
	    mcpTimeoutSeconds: number;
	    helperConcurrency: number;
	    jobsPerSession?: number;
	    notifications?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SettingsInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.model = source["model"];
	        this.baseUrl = source["baseUrl"];
	        this.apiKey = source["apiKey"];
	        this.clearKey = source["clearKey"];
	        this.approvalMode = source["approvalMode"];
	        this.thinkingBudget = source["thinkingBudget"];
	        this.budgetTokens = source["budgetTokens"];
	        this.budgetUsd = source["budgetUsd"];
	        this.checkpointRetentionMb = source["checkpointRetentionMb"];
	        this.mcpTimeoutSeconds = source["mcpTimeoutSeconds"];
	        this.helperConcurrency = source["helperConcurrency"];
	        this.jobsPerSession = source["jobsPerSession"];
	        this.notifications = source["notifications"];
	    }
	}
	export class SettingsView {
	    provider: string;
	    model: string;
	    baseUrl: string;
	    hasKey: boolean;
	    keyHint: string;
	    approvalMode: string;
	    thinkingBudget: number;
	    budgetTokens: number;
	    budgetUsd: number;
	    checkpointRetentionMb: number;
	    mcpTimeoutSeconds: number;
	    helperConcurrency: number;
	    jobsPerSession: number;
	    notifications: boolean;
	    checkpointUsageBytes: number;
	    source: Record<string, string>;
	    sourceFrom: Record<string, string>;
	    presets: Preset[];
	    warnings: string[];
	    needsOnboarding: boolean;
	    modelOverrides: ModelOverride[];
	
	    static createFrom(source: any = {}) {
	        return new SettingsView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.model = source["model"];
	        this.baseUrl = source["baseUrl"];
	        this.hasKey = source["hasKey"];
	        this.keyHint = source["keyHint"];
	        this.approvalMode = source["approvalMode"];
	        this.thinkingBudget = source["thinkingBudget"];
	        this.budgetTokens = source["budgetTokens"];
	        this.budgetUsd = source["budgetUsd"];
	        this.checkpointRetentionMb = source["checkpointRetentionMb"];
	        this.mcpTimeoutSeconds = source["mcpTimeoutSeconds"];
	        this.helperConcurrency = source["helperConcurrency"];
	        this.jobsPerSession = source["jobsPerSession"];
	        this.notifications = source["notifications"];
	        this.checkpointUsageBytes = source["checkpointUsageBytes"];
	        this.source = source["source"];
	        this.sourceFrom = source["sourceFrom"];
	        this.presets = this.convertValues(source["presets"], Preset);
	        this.warnings = source["warnings"];
	        this.needsOnboarding = source["needsOnboarding"];
	        this.modelOverrides = this.convertValues(source["modelOverrides"], ModelOverride);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SetupItem {
	    kind: string;
	    name: string;
	    description: string;
	    matcher?: string;
	    file: string;
	    scope: string;
	    state: string;
	    detail: string;
	    tokens?: number;
	
	    static createFrom(source: any = {}) {
	        return new SetupItem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.name = source["name"];
	        this.description = source["description"];
	        this.matcher = source["matcher"];
	        this.file = source["file"];
	        this.scope = source["scope"];
	        this.state = source["state"];
	        this.detail = source["detail"];
	        this.tokens = source["tokens"];
	    }
	}
	export class Setup {
	    project: string;
	    items: SetupItem[];
	    needsTrust: boolean;
	    toolNames: HookToolName[];
	
	    static createFrom(source: any = {}) {
	        return new Setup(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.project = source["project"];
	        this.items = this.convertValues(source["items"], SetupItem);
	        this.needsTrust = source["needsTrust"];
	        this.toolNames = this.convertValues(source["toolNames"], HookToolName);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class SlashCommand {
	    name: string;
	    description: string;
	    argumentHint: string;
	    source: string;
	
	    static createFrom(source: any = {}) {
	        return new SlashCommand(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	        this.argumentHint = source["argumentHint"];
	        this.source = source["source"];
	    }
	}
	
	
	
	
	
	
	export class WebSearchBackend {
	    id: string;
	    name: string;
	    needsKey: boolean;
	    hasKey: boolean;
	    keyHint?: string;
	    needsUrl: boolean;
	    defaultUrl?: string;
	
	    static createFrom(source: any = {}) {
	        return new WebSearchBackend(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.needsKey = source["needsKey"];
	        this.hasKey = source["hasKey"];
	        this.keyHint = source["keyHint"];
	        this.needsUrl = source["needsUrl"];
	        this.defaultUrl = source["defaultUrl"];
	    }
	}
	export class WebSearchInput {
	    backend: string;
	    url: string;
	    apiKey: string;
	    clearKey: boolean;
	    perSession: number;
	    providerSearch: boolean;
	
	    static createFrom(source: any = {}) {
	        return new WebSearchInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.backend = source["backend"];
	        this.url = source["url"];
	        this.apiKey = source["apiKey"];
	        this.clearKey = source["clearKey"];
	        this.perSession = source["perSession"];
	        this.providerSearch = source["providerSearch"];
	    }
	}
	export class WebSearchResult {
	    title: string;
	    url: string;
	    snippet: string;
	    date?: string;
	
	    static createFrom(source: any = {}) {
	        return new WebSearchResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.title = source["title"];
	        this.url = source["url"];
	        this.snippet = source["snippet"];
	        this.date = source["date"];
	    }
	}
	export class WebSearchTest {
	    query: string;
	    results: WebSearchResult[];
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new WebSearchTest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.query = source["query"];
	        this.results = this.convertValues(source["results"], WebSearchResult);
	        this.error = source["error"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class WebSearchView {
	    backend: string;
	    url: string;
	    perSession: number;
	    providerSearch: boolean;
	    backends: WebSearchBackend[];
	
	    static createFrom(source: any = {}) {
	        return new WebSearchView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.backend = source["backend"];
	        this.url = source["url"];
	        this.perSession = source["perSession"];
	        this.providerSearch = source["providerSearch"];
	        this.backends = this.convertValues(source["backends"], WebSearchBackend);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

