export namespace events {
	
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

}

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

